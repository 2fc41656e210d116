-- Punch-card credits (issue 15, schema/src/db/credit-tables.ts, decision 0062): a ledger of credits issued, imported, adjusted and used; replicated read-only (collection `credits`).
CREATE TABLE "punch_card_credits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"customer_user_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"product_name" text NOT NULL,
	"group_id" uuid NOT NULL,
	"group_name" text NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"invoice_id" uuid,
	"reference" text,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "punch_card_credits_delta" CHECK ("punch_card_credits"."delta" <> 0 and abs("punch_card_credits"."delta") <= 100000)
);
--> statement-breakpoint
ALTER TABLE "punch_card_credits" ADD CONSTRAINT "punch_card_credits_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_card_credits" ADD CONSTRAINT "punch_card_credits_customer_user_id_users_id_fk" FOREIGN KEY ("customer_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_card_credits" ADD CONSTRAINT "punch_card_credits_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_card_credits" ADD CONSTRAINT "punch_card_credits_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_card_credits" ADD CONSTRAINT "punch_card_credits_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "punch_card_credits_balance" ON "punch_card_credits" USING btree ("org_id","customer_user_id","group_id");--> statement-breakpoint
CREATE INDEX "punch_card_credits_feed" ON "punch_card_credits" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE UNIQUE INDEX "punch_card_credits_invoice_group" ON "punch_card_credits" USING btree ("invoice_id","group_id") WHERE "punch_card_credits"."invoice_id" is not null;--> statement-breakpoint
CREATE TRIGGER punch_card_credits_stamp BEFORE INSERT OR UPDATE ON "punch_card_credits" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
