CREATE TABLE "experiment_tasks" (
	"experiment_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"arm" text NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "experiment_tasks_experiment_id_task_id_pk" PRIMARY KEY("experiment_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"role" text NOT NULL,
	"arm_a" jsonb NOT NULL,
	"arm_b" jsonb NOT NULL,
	"share_b" integer NOT NULL,
	"max_tasks" integer NOT NULL,
	"cost_cap_usd" numeric(14, 6),
	"start_failure_bound" numeric(4, 3) NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"ended_reason" text,
	"stopped_arm" text,
	"verdict" text,
	"adopted_arm" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"adopted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "experiment_tasks" ADD CONSTRAINT "experiment_tasks_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_tasks" ADD CONSTRAINT "experiment_tasks_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "experiment_tasks_task_idx" ON "experiment_tasks" USING btree ("task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "experiments_one_running_per_role" ON "experiments" USING btree ("role") WHERE status = 'running';