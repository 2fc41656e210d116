-- Appointments (issue 16): appointment types and each staff member's weekly hours, both
-- replicated read-only (their rows are stamped); a booked appointment is a class time of its own
-- that names its type instead of a series — exactly one of the two.
CREATE TABLE "appointment_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"duration_minutes" integer NOT NULL,
	"buffer_minutes" integer DEFAULT 0 NOT NULL,
	"price_minor" integer,
	"currency" text NOT NULL,
	"staff_user_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"entitling_product_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"punch_card_group_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"time_zone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_availability" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"staff_name" text NOT NULL,
	"weekly" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"exceptions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "class_occurrences" ALTER COLUMN "class_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD COLUMN "appointment_type_id" uuid;--> statement-breakpoint
ALTER TABLE "appointment_types" ADD CONSTRAINT "appointment_types_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_availability" ADD CONSTRAINT "staff_availability_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_availability" ADD CONSTRAINT "staff_availability_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_types_feed" ON "appointment_types" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE INDEX "staff_availability_feed" ON "staff_availability" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_availability_person" ON "staff_availability" USING btree ("org_id","user_id");--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_appointment_type_id_appointment_types_id_fk" FOREIGN KEY ("appointment_type_id") REFERENCES "public"."appointment_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_occurrences_coach" ON "class_occurrences" USING btree ("coach_user_id","starts_at");--> statement-breakpoint
ALTER TABLE "class_occurrences" ADD CONSTRAINT "class_occurrences_origin" CHECK (("class_occurrences"."class_id" is null) <> ("class_occurrences"."appointment_type_id" is null));--> statement-breakpoint
CREATE TRIGGER appointment_types_stamp BEFORE INSERT OR UPDATE ON "appointment_types" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();--> statement-breakpoint
CREATE TRIGGER staff_availability_stamp BEFORE INSERT OR UPDATE ON "staff_availability" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
