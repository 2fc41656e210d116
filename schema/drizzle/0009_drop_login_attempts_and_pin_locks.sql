DROP TABLE "login_attempts" CASCADE;--> statement-breakpoint
ALTER TABLE "kiosk_pins" DROP COLUMN "failed_attempts";--> statement-breakpoint
ALTER TABLE "kiosk_pins" DROP COLUMN "locked_until";