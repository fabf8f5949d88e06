ALTER TABLE "identity"."users" ADD COLUMN "totp_key" text;--> statement-breakpoint
ALTER TABLE "identity"."users" ADD COLUMN "totp_last_step" integer;