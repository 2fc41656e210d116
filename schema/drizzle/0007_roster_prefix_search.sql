-- Hand-written (decision 0012, roster search): a query of one or two letters matches the start
-- of a first name, last name or email through these btree ranges instead of reading every row
-- of the organisation; typo matches compare names only, through their own trigram index.
CREATE INDEX "roster_items_first_name_prefix" ON "roster_items" ("org_id", lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "roster_items_last_name_prefix" ON "roster_items" ("org_id", lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "roster_items_email_prefix" ON "roster_items" ("org_id", coalesce("email", '') text_pattern_ops);--> statement-breakpoint
CREATE INDEX "roster_items_name_trgm" ON "roster_items" USING gin (lower("first_name" || ' ' || "last_name") gin_trgm_ops);
