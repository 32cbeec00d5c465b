CREATE TABLE "release_executions" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"status" text NOT NULL,
	"step" text,
	"detail" text,
	"commit_sha" text,
	"release_url" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"approved_by" text,
	"required_changes" text,
	"heartbeat_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "release_executions" ADD CONSTRAINT "release_executions_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;