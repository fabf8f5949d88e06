CREATE TABLE "ops"."scheduled_report_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"items" integer,
	"error" text,
	"instance" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ops"."scheduled_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"description" text,
	"calendar_id" integer NOT NULL,
	"device_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"format" text DEFAULT 'xlsx' NOT NULL,
	"company_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_report_runs_once_idx" ON "ops"."scheduled_report_runs" USING btree ("report_id","period_start");--> statement-breakpoint
CREATE INDEX "scheduled_report_runs_report_idx" ON "ops"."scheduled_report_runs" USING btree ("report_id","started_at");--> statement-breakpoint
CREATE INDEX "scheduled_reports_company_idx" ON "ops"."scheduled_reports" USING btree ("company_id");