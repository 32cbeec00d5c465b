CREATE TABLE "docs" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"task_id" text NOT NULL,
	"path" text NOT NULL,
	"doc_type" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"branch" text NOT NULL,
	"commit_sha" text NOT NULL,
	"created_by" text NOT NULL,
	"updated_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "docs_live_path_idx" ON "docs" USING btree ("task_id","path") WHERE "docs"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "docs_project_idx" ON "docs" USING btree ("project_id","updated_at");--> statement-breakpoint
CREATE INDEX "docs_changed_idx" ON "docs" USING btree ("updated_at","id");