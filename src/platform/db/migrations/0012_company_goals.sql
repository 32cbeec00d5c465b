CREATE TABLE "company_goal_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"changed_by" text NOT NULL,
	"fields" text[] NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_goals" (
	"id" text PRIMARY KEY NOT NULL,
	"company_name" text DEFAULT '' NOT NULL,
	"north_star" text DEFAULT '' NOT NULL,
	"objectives" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"constraints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"operating_policy" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"brand_voice" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by" text
);
--> statement-breakpoint
CREATE INDEX "company_goal_changes_at_idx" ON "company_goal_changes" USING btree ("at");