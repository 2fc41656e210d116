ALTER TABLE "guardian_links" ADD COLUMN "requested_name_of" text;--> statement-breakpoint
-- Issue 11 (A13, decision 0035): until now only create-children kept typed names (the child's).
UPDATE "guardian_links" SET "requested_name_of" = 'child' WHERE "requested_first_name" IS NOT NULL;
