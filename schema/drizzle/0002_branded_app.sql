CREATE TABLE "notification_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" uuid,
	"user_id" uuid,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"url" text,
	"adapter" text NOT NULL,
	"device_count" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid,
	"device_id" text NOT NULL,
	"kind" text NOT NULL,
	"token" text NOT NULL,
	"keys" jsonb,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_logos" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"source" "bytea" NOT NULL,
	"icon_192" "bytea" NOT NULL,
	"icon_512" "bytea" NOT NULL,
	"maskable_512" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_branding" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"app_name" text NOT NULL,
	"short_name" text NOT NULL,
	"theme_color" text NOT NULL,
	"background_color" text NOT NULL,
	"logo_version" text,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_outbox" ADD CONSTRAINT "notification_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_tokens" ADD CONSTRAINT "notification_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_tokens" ADD CONSTRAINT "notification_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_logos" ADD CONSTRAINT "org_logos_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_branding" ADD CONSTRAINT "org_branding_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_outbox_created" ON "notification_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_tokens_user_device" ON "notification_tokens" USING btree ("user_id","device_id");--> statement-breakpoint
CREATE INDEX "notification_tokens_token" ON "notification_tokens" USING btree ("token");--> statement-breakpoint
CREATE INDEX "org_branding_feed" ON "org_branding" USING btree ("org_id","txid","id");--> statement-breakpoint
CREATE TRIGGER org_branding_stamp BEFORE INSERT OR UPDATE ON "org_branding" FOR EACH ROW EXECUTE FUNCTION replicated_row_stamp();
--> statement-breakpoint
-- Every organisation has its branding row from the moment it exists, whichever path created it,
-- so every member's device can replicate it (the branded app opens offline).
CREATE FUNCTION org_branding_for_new_org() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO org_branding (id, org_id, app_name, short_name, theme_color, background_color, updated_at)
  VALUES (NEW.id, NEW.id, NEW.label, left(NEW.label, 12), '#0f766e', '#ffffff', now());
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER organizations_branding AFTER INSERT ON "organizations" FOR EACH ROW EXECUTE FUNCTION org_branding_for_new_org();
--> statement-breakpoint
INSERT INTO org_branding (id, org_id, app_name, short_name, theme_color, background_color, updated_at)
SELECT id, id, label, left(label, 12), '#0f766e', '#ffffff', now() FROM organizations;
