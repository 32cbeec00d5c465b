CREATE TABLE "agents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"team" text,
	"status" text DEFAULT 'offline' NOT NULL,
	"current_task_id" uuid,
	"model" text,
	"description" text DEFAULT '' NOT NULL,
	"capabilities" text[] DEFAULT '{}'::text[] NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "task_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"task_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"round" integer NOT NULL,
	"author_slug" text NOT NULL,
	"file" text,
	"line" integer,
	"severity" text NOT NULL,
	"criterion" text,
	"expected" text NOT NULL,
	"actual" text NOT NULL,
	"fix" text NOT NULL,
	"evidence" text,
	"status" text DEFAULT 'open' NOT NULL,
	"addressed_by_commit" text,
	"resolution_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_cells" (
	"product_id" uuid NOT NULL,
	"team" text NOT NULL,
	"project_id" uuid NOT NULL,
	CONSTRAINT "product_cells_product_id_team_pk" PRIMARY KEY("product_id","team")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"git_url" text NOT NULL,
	"git_provider" text,
	"forge_api_url" text,
	"default_branch" text DEFAULT 'main' NOT NULL,
	"protected_branches" text[] DEFAULT '{}'::text[] NOT NULL,
	"environments" jsonb,
	"assigned_cell" text,
	"test_command" text,
	"lint_command" text,
	"typecheck_command" text,
	"build_command" text,
	"quality_command" text,
	"ci_watch_enabled" boolean DEFAULT false NOT NULL,
	"ci_watch_workflow" text DEFAULT 'ci.yml' NOT NULL,
	"dep_update_command" text,
	"dep_update_paths" text,
	"monthly_budget_usd" numeric(12, 2),
	"git_token_ciphertext" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "task_cell_projects" (
	"task_id" uuid NOT NULL,
	"team" text NOT NULL,
	"project_id" uuid NOT NULL,
	CONSTRAINT "task_cell_projects_task_id_team_pk" PRIMARY KEY("task_id","team")
);
--> statement-breakpoint
CREATE TABLE "task_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"actor_id" text NOT NULL,
	"actor_role" text NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"reason" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"acceptance_criteria" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"priority" integer DEFAULT 2 NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"task_type" text NOT NULL,
	"nature" text NOT NULL,
	"complexity" text NOT NULL,
	"team" text NOT NULL,
	"project_id" uuid,
	"product_id" uuid,
	"batch_id" uuid,
	"parent_task_id" uuid,
	"depth" integer DEFAULT 0 NOT NULL,
	"dependency_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"completed_dependency_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"intends_to_touch" text[] DEFAULT '{}'::text[] NOT NULL,
	"adds_migration" boolean DEFAULT false NOT NULL,
	"touches_shared" boolean DEFAULT false NOT NULL,
	"branch_name" text,
	"pr_number" integer,
	"pr_url" text,
	"pr_created" boolean DEFAULT false NOT NULL,
	"docs_complete" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"assigned_to" uuid,
	"claimed_by" uuid,
	"active_claimant_id" uuid,
	"claimed_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"last_heartbeat_at" timestamp with time zone,
	"revision_count" integer DEFAULT 0 NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"budget_usd" numeric(12, 2),
	"plan" jsonb,
	"notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"markers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"held" boolean DEFAULT false NOT NULL,
	"confirmed_by_human" boolean DEFAULT false NOT NULL,
	"stalled_reason" text,
	"stalled_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"branch" text NOT NULL,
	"base_branch" text,
	"status" text DEFAULT 'active' NOT NULL,
	"commits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"files_changed" text[] DEFAULT '{}'::text[] NOT NULL,
	"pr_number" integer,
	"pr_url" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "task_findings" ADD CONSTRAINT "task_findings_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_cells" ADD CONSTRAINT "product_cells_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_cells" ADD CONSTRAINT "product_cells_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_cell_projects" ADD CONSTRAINT "task_cell_projects_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_cell_projects" ADD CONSTRAINT "task_cell_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_parent_task_id_tasks_id_fk" FOREIGN KEY ("parent_task_id") REFERENCES "public"."tasks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assigned_to_agents_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_claimed_by_agents_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_active_claimant_id_agents_id_fk" FOREIGN KEY ("active_claimant_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_sessions" ADD CONSTRAINT "work_sessions_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_sessions" ADD CONSTRAINT "work_sessions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agents_role_team_idx" ON "agents" USING btree ("role","team");--> statement-breakpoint
CREATE INDEX "task_findings_task_idx" ON "task_findings" USING btree ("task_id","round");--> statement-breakpoint
CREATE INDEX "task_events_task_idx" ON "task_events" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "tasks_status_idx" ON "tasks" USING btree ("status");--> statement-breakpoint
CREATE INDEX "tasks_team_status_idx" ON "tasks" USING btree ("team","status");--> statement-breakpoint
CREATE INDEX "tasks_assigned_status_idx" ON "tasks" USING btree ("assigned_to","status");--> statement-breakpoint
CREATE INDEX "tasks_project_status_idx" ON "tasks" USING btree ("project_id","status");--> statement-breakpoint
CREATE INDEX "tasks_parent_idx" ON "tasks" USING btree ("parent_task_id");--> statement-breakpoint
CREATE INDEX "tasks_source_status_idx" ON "tasks" USING btree ("source","status");--> statement-breakpoint
CREATE INDEX "tasks_active_claimant_idx" ON "tasks" USING btree ("active_claimant_id") WHERE "tasks"."active_claimant_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_dependency_ids_idx" ON "tasks" USING gin ("dependency_ids");--> statement-breakpoint
CREATE UNIQUE INDEX "work_sessions_one_active_per_task" ON "work_sessions" USING btree ("task_id") WHERE "work_sessions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "work_sessions_agent_idx" ON "work_sessions" USING btree ("agent_id","status");