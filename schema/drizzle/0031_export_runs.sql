-- Export runs own their export (issue 17, decision 0072): a retried run takes the export over by
-- its run id, and an older run's writes match nothing. Archives over 2 GB fit in bytes.
ALTER TABLE "export_jobs" ALTER COLUMN "bytes" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD COLUMN "run_id" uuid;