CREATE SCHEMA "journey";
--> statement-breakpoint
CREATE TABLE "journey"."routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text,
	"name" text NOT NULL,
	"description" text,
	"line" jsonb,
	"legs" jsonb,
	"width_m" double precision NOT NULL,
	"speed_limits_kmh" jsonb NOT NULL,
	"stop_areas" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expected_duration_minutes" double precision NOT NULL,
	"thresholds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"countries" text[] DEFAULT '{}' NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"length_m" double precision NOT NULL,
	"segment_count" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey"."journeys" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"truck_plate" text,
	"company_id" integer,
	"route_id" integer NOT NULL,
	"shipment_ref" text,
	"cargo_ref" text,
	"planned_departure" timestamp with time zone,
	"planned_arrival" timestamp with time zone,
	"state" text DEFAULT 'planned' NOT NULL,
	"actual_departure" timestamp with time zone,
	"actual_arrival" timestamp with time zone,
	"origin" jsonb,
	"destination" jsonb,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer,
	"cancel_reason" text,
	"created_by" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey"."flags" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"journey_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"type" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"distance_m" double precision,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"escalated" boolean DEFAULT false NOT NULL,
	"escalated_at" timestamp with time zone,
	"acknowledged_by" integer,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_note" text,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"resolved_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey"."audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer NOT NULL,
	"actor_email" text NOT NULL,
	"actor_company_id" integer,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"company_id" integer,
	"before" jsonb,
	"after" jsonb,
	"note" text,
	"request_id" text
);
--> statement-breakpoint
ALTER TABLE "journey"."journeys" ADD CONSTRAINT "journeys_route_id_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "journey"."routes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey"."flags" ADD CONSTRAINT "flags_journey_id_journeys_id_fk" FOREIGN KEY ("journey_id") REFERENCES "journey"."journeys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "routes_code_idx" ON "journey"."routes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "journeys_device_state_idx" ON "journey"."journeys" USING btree ("device_id","state");--> statement-breakpoint
CREATE INDEX "journeys_state_company_idx" ON "journey"."journeys" USING btree ("state","company_id");--> statement-breakpoint
CREATE INDEX "journeys_route_idx" ON "journey"."journeys" USING btree ("route_id");--> statement-breakpoint
CREATE UNIQUE INDEX "flags_journey_type_opened_idx" ON "journey"."flags" USING btree ("journey_id","type","opened_at");--> statement-breakpoint
CREATE INDEX "flags_open_idx" ON "journey"."flags" USING btree ("journey_id","cleared_at");--> statement-breakpoint
CREATE INDEX "flags_opened_idx" ON "journey"."flags" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "journey_audit_entity_idx" ON "journey"."audit_log" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "journey_audit_at_idx" ON "journey"."audit_log" USING btree ("at");