-- A subscription's agreed last day (decision 0073: product assignments imported with an end date).
ALTER TABLE "subscriptions" ADD COLUMN "ends_on" date;
