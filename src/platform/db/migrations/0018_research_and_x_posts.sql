CREATE TABLE "research_provider" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"api_key_sealed" text NOT NULL,
	"base_url" text,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "research_queries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"role" text NOT NULL,
	"kind" text NOT NULL,
	"provider" text,
	"subject" text NOT NULL,
	"result_count" integer NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "x_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"bearer_token_sealed" text NOT NULL,
	"base_url" text,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "x_posts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"approved_body" text,
	"status" text NOT NULL,
	"task_id" text,
	"release_ref" text,
	"revision_of" uuid,
	"drafted_by" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"reject_reason" text,
	"failure_reason" text,
	"tweet_id" text,
	"posted_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "research_queries_agent_at_idx" ON "research_queries" USING btree ("agent_id","at");--> statement-breakpoint
CREATE INDEX "x_posts_status_idx" ON "x_posts" USING btree ("status","created_at");