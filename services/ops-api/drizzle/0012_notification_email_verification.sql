ALTER TABLE "ops"."notification_settings" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "ops"."notification_settings" ADD COLUMN "pending_email_token" text;--> statement-breakpoint
ALTER TABLE "ops"."notification_settings" ADD COLUMN "pending_email_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ops"."notification_settings" ADD CONSTRAINT "notification_settings_pending_email_token_unique" UNIQUE("pending_email_token");