CREATE TABLE "ops"."companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"kind" text NOT NULL,
	"registration_number" text,
	"tax_pin" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_backend" text NOT NULL,
	"storage_key" text NOT NULL,
	"scan_status" text NOT NULL,
	"scan_detail" text,
	"owner_type" text,
	"owner_id" text,
	"uploaded_by_user_id" integer NOT NULL,
	"uploaded_by_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ops"."document_links" (
	"document_id" uuid NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"linked_by_user_id" integer NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_links_document_id_entity_type_entity_id_pk" PRIMARY KEY("document_id","entity_type","entity_id")
);
--> statement-breakpoint
ALTER TABLE "ops"."document_links" ADD CONSTRAINT "document_links_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "ops"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "companies_country_idx" ON "ops"."companies" USING btree ("country");--> statement-breakpoint
CREATE INDEX "documents_company_idx" ON "ops"."documents" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "documents_owner_idx" ON "ops"."documents" USING btree ("owner_type","owner_id");--> statement-breakpoint
CREATE INDEX "documents_kind_idx" ON "ops"."documents" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "document_links_entity_idx" ON "ops"."document_links" USING btree ("entity_type","entity_id");