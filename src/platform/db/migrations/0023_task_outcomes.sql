CREATE TABLE "task_outcomes" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"root_task_id" uuid NOT NULL,
	"is_root" boolean NOT NULL,
	"project_id" uuid,
	"team" text NOT NULL,
	"task_type" text NOT NULL,
	"owner_agent_id" uuid,
	"owner_role" text,
	"cli" text,
	"model" text,
	"reviewers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"qa_first_pass" boolean,
	"qa_fails" integer DEFAULT 0 NOT NULL,
	"pr_fails" integer DEFAULT 0 NOT NULL,
	"pm_rejections" integer DEFAULT 0 NOT NULL,
	"ceo_rejections" integer DEFAULT 0 NOT NULL,
	"rework_rounds" integer DEFAULT 0 NOT NULL,
	"findings_blocker" integer DEFAULT 0 NOT NULL,
	"findings_major" integer DEFAULT 0 NOT NULL,
	"findings_minor" integer DEFAULT 0 NOT NULL,
	"findings_nit" integer DEFAULT 0 NOT NULL,
	"findings_open" integer DEFAULT 0 NOT NULL,
	"first_claimed_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"end" text,
	"stage_seconds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"runs_failed_on_start" integer DEFAULT 0 NOT NULL,
	"runs_stopped_by_limit" integer DEFAULT 0 NOT NULL,
	"run_seconds" integer DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cost_usd" numeric(14, 6) DEFAULT 0 NOT NULL,
	"watermark" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_outcomes" ADD CONSTRAINT "task_outcomes_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_outcomes_root_idx" ON "task_outcomes" USING btree ("root_task_id");--> statement-breakpoint
CREATE INDEX "task_outcomes_ended_idx" ON "task_outcomes" USING btree ("ended_at");--> statement-breakpoint
CREATE INDEX "task_outcomes_owner_idx" ON "task_outcomes" USING btree ("owner_agent_id");