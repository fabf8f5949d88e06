CREATE TABLE "ops"."complaints" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_type" text NOT NULL,
	"subject_ref" text NOT NULL,
	"company_id" integer NOT NULL,
	"category" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"journey_id" text,
	"occurred_at" timestamp with time zone,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution" text,
	"filed_by_user_id" integer NOT NULL,
	"filed_by_email" text NOT NULL,
	"filed_by_company_id" integer,
	"status_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."disciplinary_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_type" text NOT NULL,
	"subject_ref" text NOT NULL,
	"company_id" integer NOT NULL,
	"sanction_type" text NOT NULL,
	"reason" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"fine_amount" numeric(14, 2),
	"fine_currency" text,
	"complaint_id" integer,
	"journey_flag_id" text,
	"recorded_by_user_id" integer NOT NULL,
	"recorded_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"user_id" integer,
	"company_id" integer,
	"role" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."notification_reads" (
	"notification_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_reads_user_id_notification_id_pk" PRIMARY KEY("user_id","notification_id")
);
--> statement-breakpoint
CREATE TABLE "ops"."notification_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"channels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"email" text,
	"webhook_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."company_flags" (
	"event_id" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"journey_id" text,
	"flag_type" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ops"."disciplinary_records" ADD CONSTRAINT "disciplinary_records_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "ops"."complaints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops"."notification_reads" ADD CONSTRAINT "notification_reads_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "ops"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "complaints_company_idx" ON "ops"."complaints" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "complaints_status_idx" ON "ops"."complaints" USING btree ("status");--> statement-breakpoint
CREATE INDEX "complaints_created_idx" ON "ops"."complaints" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "disciplinary_company_idx" ON "ops"."disciplinary_records" USING btree ("company_id","starts_at");--> statement-breakpoint
CREATE INDEX "disciplinary_complaint_idx" ON "ops"."disciplinary_records" USING btree ("complaint_id");--> statement-breakpoint
CREATE INDEX "disciplinary_created_idx" ON "ops"."disciplinary_records" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "ops"."notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_company_idx" ON "ops"."notifications" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_role_idx" ON "ops"."notifications" USING btree ("role","created_at");--> statement-breakpoint
CREATE INDEX "company_flags_company_idx" ON "ops"."company_flags" USING btree ("company_id","opened_at");--> statement-breakpoint
CREATE INDEX "company_flags_opened_idx" ON "ops"."company_flags" USING btree ("opened_at");