CREATE TABLE "ops"."groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"group_id" integer,
	"company_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."drivers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"unique_id" text NOT NULL,
	"company_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."calendars" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"data" text NOT NULL,
	"company_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"unique_id" text NOT NULL,
	"description" text,
	"from_address" text,
	"to_address" text,
	"company_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."saved_commands" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer,
	"description" text NOT NULL,
	"type" text NOT NULL,
	"text_channel" boolean DEFAULT false NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"company_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."maintenances" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"start" double precision NOT NULL,
	"period" double precision NOT NULL,
	"company_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."computed_attributes" (
	"id" serial PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"attribute" text NOT NULL,
	"expression" text NOT NULL,
	"type" text NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"company_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."device_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"manufacturer" text NOT NULL,
	"model" text NOT NULL,
	"protocol" text NOT NULL,
	"port" integer NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."configurations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"device_model_id" integer,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"company_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."device_configurations" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"configuration_id" integer,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."device_accumulators" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"total_distance" double precision,
	"total_distance_base" double precision,
	"hours" double precision,
	"hours_base" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."drafts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"company_id" integer,
	"kind" text NOT NULL,
	"title" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."truck_owners" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"id_number" text,
	"phone" text,
	"email" text,
	"address" text,
	"company_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."trucks" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"plate_number" text NOT NULL,
	"trailer_plate" text,
	"make" text,
	"model" text,
	"year" integer,
	"device_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."tracking_units" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"truck_id" integer,
	"sim_iccid" text,
	"sim_phone" text,
	"sim_operator" text,
	"installed_at" timestamp with time zone,
	"installed_by" text,
	"removed_at" timestamp with time zone,
	"company_id" integer,
	"notes" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."inventories" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"serial_number" text,
	"status" text DEFAULT 'in_stock' NOT NULL,
	"company_id" integer,
	"truck_id" integer,
	"assigned_at" timestamp with time zone,
	"notes" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."inventory_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"inventory_id" integer NOT NULL,
	"action" text NOT NULL,
	"from_company_id" integer,
	"to_company_id" integer,
	"from_truck_id" integer,
	"to_truck_id" integer,
	"actor_user_id" integer NOT NULL,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."notification_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"description" text,
	"always" boolean DEFAULT false NOT NULL,
	"device_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"alarms" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notificators" jsonb NOT NULL,
	"recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"webhook_url" text,
	"calendar_id" integer,
	"company_id" integer,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."notification_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"user_id" integer,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"error" text,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."shipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"reference" text NOT NULL,
	"origin_place" text NOT NULL,
	"origin_country" text NOT NULL,
	"destination_place" text NOT NULL,
	"destination_country" text NOT NULL,
	"corridor" text,
	"route_id" integer,
	"border_crossings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"transport_mode" text NOT NULL,
	"truck_plate" text,
	"trailer_plate" text,
	"driver" jsonb,
	"container_numbers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bill_of_lading_number" text,
	"cmr_number" text,
	"cargo_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"planned_departure" timestamp with time zone,
	"planned_arrival" timestamp with time zone,
	"actual_departure" timestamp with time zone,
	"actual_arrival" timestamp with time zone,
	"journey_id" integer,
	"notes" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"status_before_hold" text,
	"created_by_user_id" integer NOT NULL,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."shipment_status_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by_user_id" integer NOT NULL,
	"by_email" text NOT NULL,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "ops"."shipment_progress_updates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"shipment_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"location_name" text,
	"latitude" double precision,
	"longitude" double precision,
	"note" text,
	"recorded_by_user_id" integer NOT NULL,
	"recorded_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."cargos" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"idf_number" text NOT NULL,
	"importer_name" text NOT NULL,
	"importer_pin" text,
	"consignor" text,
	"country_of_origin" text,
	"port_of_discharge" text,
	"invoice_value" numeric(18, 2),
	"currency" text,
	"line_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"extraction" jsonb NOT NULL,
	"source_document_id" uuid,
	"status" text DEFAULT 'submitted' NOT NULL,
	"created_by_user_id" integer NOT NULL,
	"created_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."cargo_status_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"cargo_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by_user_id" integer NOT NULL,
	"by_email" text NOT NULL,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "ops"."single_use_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"number" text GENERATED ALWAYS AS ('SUC-' || lpad(id::text, 6, '0')) STORED,
	"cargo_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"status" text DEFAULT 'applied' NOT NULL,
	"verification_code" text NOT NULL,
	"applicant_user_id" integer NOT NULL,
	"applicant_email" text NOT NULL,
	"fee_amount" numeric(14, 2) NOT NULL,
	"fee_currency" text NOT NULL,
	"invoice_number" text,
	"receipt_number" text,
	"payment_reference" text,
	"payment_method" text,
	"paid_at" timestamp with time zone,
	"certificate_document_id" uuid,
	"invoice_document_id" uuid,
	"receipt_document_id" uuid,
	"generated_at" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by_user_id" integer,
	"decided_by_email" text,
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ops"."complaints" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "ops"."trucks" ADD CONSTRAINT "trucks_owner_id_truck_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "ops"."truck_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops"."shipment_status_history" ADD CONSTRAINT "shipment_status_history_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "ops"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops"."shipment_progress_updates" ADD CONSTRAINT "shipment_progress_updates_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "ops"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops"."cargo_status_history" ADD CONSTRAINT "cargo_status_history_cargo_id_cargos_id_fk" FOREIGN KEY ("cargo_id") REFERENCES "ops"."cargos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops"."single_use_certificates" ADD CONSTRAINT "single_use_certificates_cargo_id_cargos_id_fk" FOREIGN KEY ("cargo_id") REFERENCES "ops"."cargos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops"."single_use_certificates" ADD CONSTRAINT "single_use_certificates_certificate_document_id_documents_id_fk" FOREIGN KEY ("certificate_document_id") REFERENCES "ops"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops"."single_use_certificates" ADD CONSTRAINT "single_use_certificates_invoice_document_id_documents_id_fk" FOREIGN KEY ("invoice_document_id") REFERENCES "ops"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ops"."single_use_certificates" ADD CONSTRAINT "single_use_certificates_receipt_document_id_documents_id_fk" FOREIGN KEY ("receipt_document_id") REFERENCES "ops"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "groups_company_idx" ON "ops"."groups" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "groups_parent_idx" ON "ops"."groups" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_unique_id_idx" ON "ops"."drivers" USING btree ("unique_id");--> statement-breakpoint
CREATE INDEX "drivers_company_idx" ON "ops"."drivers" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "calendars_company_idx" ON "ops"."calendars" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_company_unique_idx" ON "ops"."orders" USING btree (coalesce("company_id", 0),"unique_id");--> statement-breakpoint
CREATE INDEX "orders_company_idx" ON "ops"."orders" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "saved_commands_company_idx" ON "ops"."saved_commands" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "saved_commands_device_idx" ON "ops"."saved_commands" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "maintenances_company_idx" ON "ops"."maintenances" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "computed_attributes_company_idx" ON "ops"."computed_attributes" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_models_make_model_idx" ON "ops"."device_models" USING btree ("manufacturer","model");--> statement-breakpoint
CREATE INDEX "configurations_company_idx" ON "ops"."configurations" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "drafts_user_idx" ON "ops"."drafts" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "truck_owners_company_idx" ON "ops"."truck_owners" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trucks_plate_idx" ON "ops"."trucks" USING btree ("plate_number");--> statement-breakpoint
CREATE INDEX "trucks_owner_idx" ON "ops"."trucks" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "trucks_device_idx" ON "ops"."trucks" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_units_active_device_idx" ON "ops"."tracking_units" USING btree ("device_id") WHERE "ops"."tracking_units"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "tracking_units_company_idx" ON "ops"."tracking_units" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "tracking_units_truck_idx" ON "ops"."tracking_units" USING btree ("truck_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inventories_device_idx" ON "ops"."inventories" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "inventories_company_idx" ON "ops"."inventories" USING btree ("company_id","status");--> statement-breakpoint
CREATE INDEX "inventory_history_item_idx" ON "ops"."inventory_history" USING btree ("inventory_id","at");--> statement-breakpoint
CREATE INDEX "notification_rules_type_idx" ON "ops"."notification_rules" USING btree ("type","company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_once_idx" ON "ops"."notification_deliveries" USING btree ("rule_id","event_id","channel","recipient");--> statement-breakpoint
CREATE INDEX "notification_deliveries_user_idx" ON "ops"."notification_deliveries" USING btree ("user_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_company_reference_idx" ON "ops"."shipments" USING btree ("company_id","reference");--> statement-breakpoint
CREATE INDEX "shipments_company_created_idx" ON "ops"."shipments" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "shipments_status_idx" ON "ops"."shipments" USING btree ("status");--> statement-breakpoint
CREATE INDEX "shipments_truck_idx" ON "ops"."shipments" USING btree ("truck_plate");--> statement-breakpoint
CREATE INDEX "shipment_status_history_shipment_idx" ON "ops"."shipment_status_history" USING btree ("shipment_id","at");--> statement-breakpoint
CREATE INDEX "shipment_progress_shipment_idx" ON "ops"."shipment_progress_updates" USING btree ("shipment_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "cargos_company_idf_idx" ON "ops"."cargos" USING btree ("company_id","idf_number");--> statement-breakpoint
CREATE INDEX "cargos_company_created_idx" ON "ops"."cargos" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "cargos_status_idx" ON "ops"."cargos" USING btree ("status");--> statement-breakpoint
CREATE INDEX "cargo_status_history_cargo_idx" ON "ops"."cargo_status_history" USING btree ("cargo_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "suc_verification_code_idx" ON "ops"."single_use_certificates" USING btree ("verification_code");--> statement-breakpoint
CREATE UNIQUE INDEX "suc_cargo_live_idx" ON "ops"."single_use_certificates" USING btree ("cargo_id") WHERE status <> 'rejected';--> statement-breakpoint
CREATE INDEX "suc_company_created_idx" ON "ops"."single_use_certificates" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "suc_status_idx" ON "ops"."single_use_certificates" USING btree ("status");