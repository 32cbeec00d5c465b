CREATE TABLE "secretary_directives" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"rationale" text DEFAULT '' NOT NULL,
	"session_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"result" jsonb,
	"error" text,
	"reject_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text
);
--> statement-breakpoint
CREATE INDEX "secretary_directives_status_idx" ON "secretary_directives" USING btree ("status","created_at");