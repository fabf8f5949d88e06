CREATE SCHEMA "geofence";
--> statement-breakpoint
CREATE TABLE "geofence"."geofences" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"area" text NOT NULL,
	"calendar_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"kind" text DEFAULT 'other' NOT NULL,
	"country" text,
	"seed_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "geofence"."geofence_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"geofence_id" integer NOT NULL,
	"device_id" integer,
	"group_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "geofence_links_one_target" CHECK (num_nonnulls("geofence"."geofence_links"."device_id", "geofence"."geofence_links"."group_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "geofence"."geofence_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"device_id" integer NOT NULL,
	"geofence_id" integer NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"position_id" text,
	"latitude" double precision,
	"longitude" double precision,
	"entered_at" timestamp with time zone,
	"dwell_seconds" double precision,
	"company_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "geofence"."audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"request_id" text
);
--> statement-breakpoint
ALTER TABLE "geofence"."geofence_links" ADD CONSTRAINT "geofence_links_geofence_id_geofences_id_fk" FOREIGN KEY ("geofence_id") REFERENCES "geofence"."geofences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "geofences_seed_key_idx" ON "geofence"."geofences" USING btree ("seed_key");--> statement-breakpoint
CREATE INDEX "geofences_kind_idx" ON "geofence"."geofences" USING btree ("kind");--> statement-breakpoint
CREATE UNIQUE INDEX "geofence_links_device_idx" ON "geofence"."geofence_links" USING btree ("geofence_id","device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "geofence_links_group_idx" ON "geofence"."geofence_links" USING btree ("geofence_id","group_id");--> statement-breakpoint
CREATE INDEX "geofence_links_by_device_idx" ON "geofence"."geofence_links" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "geofence_links_by_group_idx" ON "geofence"."geofence_links" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "geofence_events_fence_time_idx" ON "geofence"."geofence_events" USING btree ("geofence_id","event_time");--> statement-breakpoint
CREATE INDEX "geofence_events_device_time_idx" ON "geofence"."geofence_events" USING btree ("device_id","event_time");--> statement-breakpoint
CREATE INDEX "audit_entity_idx" ON "geofence"."audit_log" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "audit_at_idx" ON "geofence"."audit_log" USING btree ("at");