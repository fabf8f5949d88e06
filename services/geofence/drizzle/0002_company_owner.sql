ALTER TABLE "geofence"."geofences" ADD COLUMN "company_id" integer;--> statement-breakpoint
CREATE INDEX "geofences_company_idx" ON "geofence"."geofences" USING btree ("company_id");