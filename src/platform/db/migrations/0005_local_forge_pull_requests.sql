CREATE TABLE "pull_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"head" text NOT NULL,
	"base" text NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"merge_method" text,
	"merge_sha" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"merged_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "pull_requests_project_number" ON "pull_requests" USING btree ("project_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "pull_requests_one_open_per_head_base" ON "pull_requests" USING btree ("project_id","head","base") WHERE "pull_requests"."state" = 'open';--> statement-breakpoint
CREATE INDEX "pull_requests_project_head" ON "pull_requests" USING btree ("project_id","head");