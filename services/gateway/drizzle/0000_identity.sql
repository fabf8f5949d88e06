CREATE SCHEMA "identity";
--> statement-breakpoint
CREATE TABLE "identity"."users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"login" text,
	"name" text NOT NULL,
	"password_hash" text,
	"roles" text[] NOT NULL,
	"company_id" integer,
	"disabled" boolean DEFAULT false NOT NULL,
	"expiration_time" timestamp with time zone,
	"phone" text,
	"readonly" boolean DEFAULT false NOT NULL,
	"map" text,
	"latitude" double precision DEFAULT 0 NOT NULL,
	"longitude" double precision DEFAULT 0 NOT NULL,
	"zoom" integer DEFAULT 0 NOT NULL,
	"coordinate_format" text,
	"device_limit" integer DEFAULT -1 NOT NULL,
	"user_limit" integer DEFAULT 0 NOT NULL,
	"device_readonly" boolean DEFAULT false NOT NULL,
	"limit_commands" boolean DEFAULT false NOT NULL,
	"disable_reports" boolean DEFAULT false NOT NULL,
	"fixed_email" boolean DEFAULT false NOT NULL,
	"poi_layer" text,
	"oidc_subject" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"scope" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."permissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_type" text NOT NULL,
	"owner_id" integer NOT NULL,
	"property_type" text NOT NULL,
	"property_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"actor_email" text,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"address" text,
	"request_id" text
);
--> statement-breakpoint
ALTER TABLE "identity"."api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "identity"."users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_idx" ON "identity"."users" USING btree (lower("login"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_subject_idx" ON "identity"."users" USING btree ("oidc_subject");--> statement-breakpoint
CREATE INDEX "users_company_idx" ON "identity"."users" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_idx" ON "identity"."api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "identity"."api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "permissions_link_idx" ON "identity"."permissions" USING btree ("owner_type","owner_id","property_type","property_id");--> statement-breakpoint
CREATE INDEX "permissions_property_idx" ON "identity"."permissions" USING btree ("property_type","property_id");--> statement-breakpoint
CREATE INDEX "identity_audit_entity_idx" ON "identity"."audit_log" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "identity_audit_at_idx" ON "identity"."audit_log" USING btree ("at");