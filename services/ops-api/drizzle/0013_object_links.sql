CREATE TABLE "ops"."object_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_type" text NOT NULL,
	"owner_id" integer NOT NULL,
	"property_type" text NOT NULL,
	"property_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "object_links_link_idx" ON "ops"."object_links" USING btree ("owner_type","owner_id","property_type","property_id");--> statement-breakpoint
CREATE INDEX "object_links_property_idx" ON "ops"."object_links" USING btree ("property_type","property_id");