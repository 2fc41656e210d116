-- The CSV import finds accounts by address whatever its letter case (issue 17, decision 0071).
CREATE INDEX "users_email_lower" ON "users" USING btree (lower("email"));