ALTER TABLE "ops"."notification_rules" ADD COLUMN "group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "ops"."notification_rules" ADD COLUMN "command_id" integer;--> statement-breakpoint
ALTER TABLE "ops"."scheduled_report_runs" ADD COLUMN "attempts" integer DEFAULT 1 NOT NULL;