CREATE TABLE "live_chat_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"owner_id" text NOT NULL,
	"scope" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"draft" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"last_activity_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_reason" text
);
--> statement-breakpoint
CREATE TABLE "live_chat_turns" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
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
ALTER TABLE "live_chat_turns" ADD CONSTRAINT "live_chat_turns_session_id_live_chat_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_chat_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_chat_sessions_kind_status_idx" ON "live_chat_sessions" USING btree ("kind","status");--> statement-breakpoint
CREATE UNIQUE INDEX "live_chat_turns_session_seq_idx" ON "live_chat_turns" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "secretary_directives_status_idx" ON "secretary_directives" USING btree ("status","created_at");