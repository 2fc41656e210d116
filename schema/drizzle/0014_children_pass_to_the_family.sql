-- Issue 11 (A15, decision 0035): a child without an email is its family's. When its guardian
-- claims their account, the children without an email they hold a confirmed link to (and those
-- below them) are claimed with them, so the organisation that made them stops acting for them.
-- The server does this from now on (claimAccount); this does it for the claims made before: the
-- links that stood when the guardian claimed.
WITH RECURSIVE "family"("id") AS (
  SELECT link."child_user_id" FROM "guardian_links" link
    JOIN "users" guardian ON guardian."id" = link."guardian_user_id"
    WHERE link."confirmed_at" IS NOT NULL AND guardian."claimed_at" IS NOT NULL
      AND link."created_at" <= guardian."claimed_at"
  UNION
  SELECT link."child_user_id" FROM "guardian_links" link
    JOIN "family" ON link."guardian_user_id" = "family"."id"
    JOIN "users" child ON child."id" = "family"."id"
    WHERE link."confirmed_at" IS NOT NULL AND child."email" IS NULL
)
UPDATE "users" SET "claimed_at" = now()
  WHERE "id" IN (SELECT "id" FROM "family") AND "email" IS NULL AND "claimed_at" IS NULL;
