CREATE TABLE "ops"."notice_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notification_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ops"."notifications" ADD COLUMN "delivery_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "notice_deliveries_once_idx" ON "ops"."notice_deliveries" USING btree ("notification_id","user_id","channel");--> statement-breakpoint
CREATE INDEX "notice_deliveries_user_idx" ON "ops"."notice_deliveries" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "notifications_delivery_pending_idx" ON "ops"."notifications" USING btree ("id") WHERE "ops"."notifications"."delivery_pending";