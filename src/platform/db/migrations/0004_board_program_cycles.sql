CREATE TABLE "board_program_cycles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "board_program_cycles_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_key" text NOT NULL,
	"trigger" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"items_examined" integer DEFAULT 0 NOT NULL,
	"tasks_opened" integer DEFAULT 0 NOT NULL,
	"opened_task_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"skipped_by_cap" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	"error_messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"outcome" text DEFAULT 'running' NOT NULL,
	"outcome_detail" text
);
--> statement-breakpoint
CREATE INDEX "board_program_cycles_program_idx" ON "board_program_cycles" USING btree ("program_key","opened_at");