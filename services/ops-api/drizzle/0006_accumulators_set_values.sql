ALTER TABLE "ops"."device_accumulators" DROP COLUMN "total_distance_base";--> statement-breakpoint
ALTER TABLE "ops"."device_accumulators" DROP COLUMN "hours_base";