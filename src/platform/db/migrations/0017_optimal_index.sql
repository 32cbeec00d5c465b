CREATE TABLE "optimal_chunks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"ref" text NOT NULL,
	"project_id" text,
	"title" text NOT NULL,
	"url" text,
	"chunk_no" integer NOT NULL,
	"text" text NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', text), 'B')) STORED NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "optimal_index_state" (
	"source" text PRIMARY KEY NOT NULL,
	"cursor_at" timestamp with time zone,
	"cursor_ref" text,
	"items_indexed" bigint DEFAULT 0 NOT NULL,
	"last_pass_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "optimal_vector_state" (
	"id" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"dimensions" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "optimal_chunks_item_idx" ON "optimal_chunks" USING btree ("source","ref","chunk_no");--> statement-breakpoint
CREATE INDEX "optimal_chunks_tsv_idx" ON "optimal_chunks" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "optimal_chunks_project_idx" ON "optimal_chunks" USING btree ("project_id");