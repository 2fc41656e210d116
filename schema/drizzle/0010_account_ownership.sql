ALTER TABLE "crm_invitations" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD COLUMN "created_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD COLUMN "confirmed_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD COLUMN "requested_first_name" text;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD COLUMN "requested_last_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "created_by_org_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "created_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "roster_items" ADD COLUMN "invitation_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD CONSTRAINT "guardian_links_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_links" ADD CONSTRAINT "guardian_links_confirmed_by_user_id_users_id_fk" FOREIGN KEY ("confirmed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_created_by_org_id_organizations_id_fk" FOREIGN KEY ("created_by_org_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Backfill (decision 0035). An account with a password or a Google sign-in was claimed by its owner.
UPDATE "users" SET "claimed_at" = "created_at" WHERE "password_hash" IS NOT NULL OR "google_subject" IS NOT NULL;--> statement-breakpoint
-- An unclaimed account an organisation invited was made by that organisation's staff.
UPDATE "users" u SET "created_by_org_id" = (
  SELECT i."org_id" FROM "crm_invitations" i WHERE i."user_id" = u."id" ORDER BY i."created_at" LIMIT 1
) WHERE u."claimed_at" IS NULL;--> statement-breakpoint
-- A child without an email is the family's: its links stand. A link to an account with an email
-- waits for that account's owner to confirm it.
UPDATE "guardian_links" gl SET "confirmed_at" = gl."created_at"
  FROM "users" c WHERE c."id" = gl."child_user_id" AND c."email" IS NULL;--> statement-breakpoint
UPDATE "roster_items" r SET "invitation_pending" = true
  FROM "users" u WHERE u."id" = r."user_id" AND u."claimed_at" IS NULL AND u."email" IS NOT NULL;
