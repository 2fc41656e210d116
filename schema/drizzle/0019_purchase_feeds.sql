ALTER TABLE "products" ALTER COLUMN "updated_at" SET DATA TYPE timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "updated_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_feed" ON "invoices" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE INDEX "products_feed" ON "products" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE INDEX "subscriptions_feed" ON "subscriptions" USING btree ("org_id","txid","id");--> statement-breakpoint
-- ===== Hand-written (decision 0058) — carry this whole block over by hand if this migration is
-- renumbered. drizzle-kit generated the two product_name columns as `ADD COLUMN … NOT NULL`,
-- which fails on existing rows: they are added here, filled from the product, then made NOT NULL.
ALTER TABLE "invoices" ADD COLUMN "product_name" text;--> statement-breakpoint
UPDATE "invoices" SET "product_name" = "products"."name" FROM "products" WHERE "products"."id" = "invoices"."product_id";--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "product_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "product_name" text;--> statement-breakpoint
UPDATE "subscriptions" SET "product_name" = "products"."name" FROM "products" WHERE "products"."id" = "subscriptions"."product_id";--> statement-breakpoint
ALTER TABLE "subscriptions" ALTER COLUMN "product_name" SET NOT NULL;--> statement-breakpoint
-- Existing rows take their last known change as their last change (products kept theirs).
UPDATE "invoices" SET "updated_at" = coalesce("paid_at", "created_at");--> statement-breakpoint
UPDATE "subscriptions" SET "updated_at" = coalesce("cancelled_at", "created_at");--> statement-breakpoint
-- Every replicated table stamps its change position (0001_replication).
CREATE TRIGGER products_stamp BEFORE INSERT OR UPDATE ON "products" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();--> statement-breakpoint
CREATE TRIGGER invoices_stamp BEFORE INSERT OR UPDATE ON "invoices" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();--> statement-breakpoint
CREATE TRIGGER subscriptions_stamp BEFORE INSERT OR UPDATE ON "subscriptions" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
-- ===== End of hand-written block.
