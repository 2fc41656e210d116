-- The schedule (issue 16, decision 0066): class and event series, one row per occurrence with
-- its places taken and people waiting (a check keeps places within capacity), and a booking's
-- verdict, payment and check-in, and customers' private calendar feeds. The series and class-time
-- tables are replicated: their rows are stamped.
CREATE TABLE "calendar_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "class_occurrences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"rule_day" text NOT NULL,
	"title" text NOT NULL,
	"kind" text NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"coach_user_id" uuid,
	"coach_name" text,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"booked_count" integer DEFAULT 0 NOT NULL,
	"waitlist_count" integer DEFAULT 0 NOT NULL,
	"cancel_by" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"detached" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "class_occurrences_counts" CHECK ("class_occurrences"."booked_count" >= 0 and "class_occurrences"."waitlist_count" >= 0),
	CONSTRAINT "class_occurrences_capacity" CHECK ("class_occurrences"."booked_count" <= "class_occurrences"."capacity")
);
--> statement-breakpoint
CREATE TABLE "schedule_classes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"coach_user_id" uuid,
	"coach_name" text,
	"capacity" integer NOT NULL,
	"price_minor" integer,
	"currency" text NOT NULL,
	"entitling_product_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"punch_card_group_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"first_start" text NOT NULL,
	"duration_minutes" integer NOT NULL,
	"rrule" text,
	"time_zone" text NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "schedule_classes_capacity" CHECK ("schedule_classes"."capacity" between 1 and 1000)
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "customer_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "appointment" jsonb;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "join_waitlist" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "paid_with" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "credit_group_id" uuid;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "refusal" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "requested_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "decided_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "checked_in_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "reminded_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_class_id_schedule_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."schedule_classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_coach_user_id_users_id_fk" FOREIGN KEY ("coach_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_classes" ADD CONSTRAINT "schedule_classes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_classes" ADD CONSTRAINT "schedule_classes_coach_user_id_users_id_fk" FOREIGN KEY ("coach_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_classes" ADD CONSTRAINT "schedule_classes_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feeds_person" ON "calendar_feeds" USING btree ("org_id","user_id");--> statement-breakpoint
CREATE INDEX "class_occurrences_feed" ON "class_occurrences" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE INDEX "class_occurrences_when" ON "class_occurrences" USING btree ("org_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "class_occurrences_rule_day" ON "class_occurrences" USING btree ("class_id","rule_day");--> statement-breakpoint
CREATE INDEX "schedule_classes_feed" ON "schedule_classes" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE INDEX "bookings_occurrence" ON "bookings" USING btree ("occurrence_id","status");--> statement-breakpoint
CREATE TRIGGER schedule_classes_stamp BEFORE INSERT OR UPDATE ON "schedule_classes" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();--> statement-breakpoint
CREATE TRIGGER class_occurrences_stamp BEFORE INSERT OR UPDATE ON "class_occurrences" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
