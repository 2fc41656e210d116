-- Issue 11 (A1, decision 0035): a switched session kept only its last hop in return_to_user_id,
-- and a "return" from a child session gave whoever held it an own session of the account it
-- came back to. From now on return_to_user_id is the person at the keyboard through every hop.
-- A session laundered before this cannot be told from its owner's own, so every live session
-- signs in again, once. Kiosk devices are not sessions: they stay.
UPDATE "sessions" SET "revoked_at" = now() WHERE "revoked_at" IS NULL;
