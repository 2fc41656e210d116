-- Stripe behind the PaymentProcessor port (decision 0057): customers at the processor, its
-- webhook events processed once, and the processor's subscription and renewal invoices.
CREATE TABLE "processor_customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"processor" text NOT NULL,
	"processor_customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processor_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "processor_invoice_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "processor_subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "processor_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "processor_customers" ADD CONSTRAINT "processor_customers_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processor_customers" ADD CONSTRAINT "processor_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "processor_customers_person" ON "processor_customers" USING btree ("org_id","user_id","processor");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_processor_invoice" ON "invoices" USING btree ("processor_invoice_id") WHERE "invoices"."processor_invoice_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_processor_subscription" ON "subscriptions" USING btree ("processor_subscription_id") WHERE "subscriptions"."processor_subscription_id" is not null;