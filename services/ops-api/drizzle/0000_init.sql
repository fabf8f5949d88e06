CREATE SCHEMA "ops";
--> statement-breakpoint
CREATE TABLE "ops"."devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"unique_id" text NOT NULL,
	"status" text DEFAULT 'unknown' NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"last_update" timestamp with time zone,
	"position_id" text,
	"group_id" integer,
	"calendar_id" integer,
	"company_id" integer,
	"phone" text,
	"model" text,
	"contact" text,
	"category" text,
	"expiration_time" timestamp with time zone,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "devices_unique_id_idx" ON "ops"."devices" USING btree ("unique_id");--> statement-breakpoint
CREATE INDEX "devices_company_idx" ON "ops"."devices" USING btree ("company_id");