CREATE TABLE "journal_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"author_id" text NOT NULL,
	"author_slug" text NOT NULL,
	"entry_type" text NOT NULL,
	"content" text NOT NULL,
	"task_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "journal_entries_author_idx" ON "journal_entries" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "journal_entries_changed_idx" ON "journal_entries" USING btree ("updated_at","id");