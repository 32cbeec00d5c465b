CREATE TABLE "dispatch_budget_breaches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"period" text DEFAULT '' NOT NULL,
	"cap_usd" numeric(12, 2) NOT NULL,
	"spent_usd" numeric(14, 6) NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dispatch_task_spawns" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"agent_id" uuid,
	"spawns" integer DEFAULT 0 NOT NULL,
	"last_event_id" bigint,
	"heartbeat_at" timestamp with time zone,
	"last_spawn_at" timestamp with time zone,
	"stalled_at" timestamp with time zone,
	"stalled_reason" text
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent_id" uuid,
	"task_id" uuid,
	"project_id" uuid,
	"provider" text NOT NULL,
	"model" text,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"cost_usd" numeric(14, 6) DEFAULT 0 NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dispatch_task_spawns" ADD CONSTRAINT "dispatch_task_spawns_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch_task_spawns" ADD CONSTRAINT "dispatch_task_spawns_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dispatch_budget_breaches_once_idx" ON "dispatch_budget_breaches" USING btree ("kind","subject_id","period","cap_usd");--> statement-breakpoint
CREATE INDEX "usage_records_task_idx" ON "usage_records" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "usage_records_project_at_idx" ON "usage_records" USING btree ("project_id","at");--> statement-breakpoint
CREATE INDEX "usage_records_agent_at_idx" ON "usage_records" USING btree ("agent_id","at");--> statement-breakpoint
CREATE INDEX "usage_records_at_idx" ON "usage_records" USING btree ("at");