CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"free_at" timestamp with time zone NOT NULL,
	"forget_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP TABLE "login_attempts" CASCADE;--> statement-breakpoint
CREATE INDEX "rate_limits_forget_at" ON "rate_limits" USING btree ("forget_at");--> statement-breakpoint
ALTER TABLE "kiosk_pins" DROP COLUMN "failed_attempts";--> statement-breakpoint
ALTER TABLE "kiosk_pins" DROP COLUMN "locked_until";