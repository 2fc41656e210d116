-- The card a subscription renews with (issue 15, decision 0064): its payment method and the card's brand, last 4 and expiry, replicated to the customer's Purchase history.
ALTER TABLE "subscriptions" ADD COLUMN "payment_method_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "card" jsonb;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- ===== Hand-written (decision 0064) — carry this block over by hand if this migration is
-- renumbered. A subscription bought before renews with the card its first invoice was paid
-- with; the update moves each row's change position, so devices pull the card too.
UPDATE "subscriptions" SET
  "payment_method_id" = "payment_methods"."id",
  "card" = jsonb_build_object(
    'brand', "payment_methods"."brand",
    'last4', "payment_methods"."last4",
    'expMonth', "payment_methods"."exp_month",
    'expYear', "payment_methods"."exp_year"),
  "updated_at" = now()
FROM "invoices", "payment_methods"
WHERE "invoices"."id" = "subscriptions"."first_invoice_id"
  AND "payment_methods"."id" = "invoices"."payment_method_id";
-- ===== End of hand-written block.
