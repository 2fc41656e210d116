CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"customer_user_id" uuid NOT NULL,
	"occurrence_id" text NOT NULL,
	"status" text NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roster_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"start_time" timestamp (3) with time zone NOT NULL,
	"end_time" timestamp (3) with time zone,
	"break_intervals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_customer_user_id_users_id_fk" FOREIGN KEY ("customer_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_items" ADD CONSTRAINT "roster_items_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roster_items" ADD CONSTRAINT "roster_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_feed" ON "bookings" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE INDEX "bookings_customer" ON "bookings" USING btree ("customer_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roster_items_org_user" ON "roster_items" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE INDEX "roster_items_feed" ON "roster_items" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE INDEX "time_entries_feed" ON "time_entries" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE INDEX "time_entries_person" ON "time_entries" USING btree ("org_id","user_id","start_time");--> statement-breakpoint
-- Every write to a replicated row takes the writing transaction's id as its change position,
-- whichever path wrote it (replication push, a spec endpoint, a script). See pull.ts for why
-- this position, read below pg_snapshot_xmin, never lets a late commit be skipped.
CREATE FUNCTION replicated_row_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.txid := pg_current_xact_id();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER roster_items_stamp BEFORE INSERT OR UPDATE ON "roster_items" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
--> statement-breakpoint
CREATE TRIGGER time_entries_stamp BEFORE INSERT OR UPDATE ON "time_entries" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
--> statement-breakpoint
CREATE TRIGGER bookings_stamp BEFORE INSERT OR UPDATE ON "bookings" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
