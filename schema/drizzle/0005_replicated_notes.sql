ALTER TABLE "customer_notes" ALTER COLUMN "created_at" SET DATA TYPE timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "customer_notes" ALTER COLUMN "created_at" SET DEFAULT now();--> statement-breakpoint
-- Hand-edited: existing notes take their creation time as their last change.
ALTER TABLE "customer_notes" ADD COLUMN "updated_at" timestamp (3) with time zone NOT NULL DEFAULT now();--> statement-breakpoint
UPDATE "customer_notes" SET "updated_at" = "created_at";--> statement-breakpoint
ALTER TABLE "customer_notes" ALTER COLUMN "updated_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "customer_notes" ADD COLUMN "deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_notes" ADD COLUMN "txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "customer_notes_feed" ON "customer_notes" USING btree ("org_id","txid","id");--> statement-breakpoint
-- Hand-written: every replicated table stamps its change position (0001_replication).
CREATE TRIGGER customer_notes_stamp BEFORE INSERT OR UPDATE ON "customer_notes" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
