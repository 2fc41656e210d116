-- When the processor said yes to stopping a subscription at its period's end for an agreed end
-- (decision 0073); the hourly sweep asks again while it is null.
ALTER TABLE "subscriptions" ADD COLUMN "processor_stop_asked_at" timestamp with time zone;