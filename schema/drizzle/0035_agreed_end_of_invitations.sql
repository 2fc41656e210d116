-- An invitation's agreed end (decision 0073: product assignments imported with an end date),
-- carried to the invoice its payment makes and from it to the subscription, in the charge's
-- transaction.
ALTER TABLE "invoices" ADD COLUMN "ends_on" date;--> statement-breakpoint
ALTER TABLE "product_invites" ADD COLUMN "end_date" date;