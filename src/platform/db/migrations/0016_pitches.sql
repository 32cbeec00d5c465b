CREATE TABLE "pitches" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"problem" text NOT NULL,
	"proposal" text NOT NULL,
	"target_cells" text[] NOT NULL,
	"status" text NOT NULL,
	"proposed_by" text NOT NULL,
	"decided_by" text,
	"decision_notes" text,
	"decided_at" timestamp with time zone,
	"project_ids" text[] DEFAULT '{}' NOT NULL,
	"product_id" text,
	"task_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pitches_slug_unique" UNIQUE("slug")
);
