-- Sandbox renewals (decision 0060): a renewal invoice names the billing date it is for (one per
-- subscription and period), a past-due subscription when its renewal is tried again, and the
-- renewal job's look-up by next billing date.
ALTER TABLE "invoices" ADD COLUMN "period_start" date;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "renewal_retry_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_renewal_period" ON "invoices" USING btree ("subscription_id","period_start") WHERE "invoices"."period_start" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_renewals_due" ON "subscriptions" USING btree ("next_billing_date") WHERE "subscriptions"."status" <> 'cancelled';