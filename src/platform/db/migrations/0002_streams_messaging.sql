CREATE TABLE "a2a_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"participant_a" uuid NOT NULL,
	"participant_b" uuid NOT NULL,
	"topic" text,
	"task_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "a2a_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"conversation_id" uuid NOT NULL,
	"sender_id" uuid NOT NULL,
	"body" text NOT NULL,
	"kind" text DEFAULT 'message' NOT NULL,
	"response_to_id" uuid,
	"requires_response" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "a2a_messages_seq_unique" UNIQUE("seq")
);
--> statement-breakpoint
CREATE TABLE "a2a_read_marks" (
	"conversation_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"last_read_seq" bigint DEFAULT 0 NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "a2a_read_marks_conversation_id_agent_id_pk" PRIMARY KEY("conversation_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "chat_relay_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"bot_token_sealed" text NOT NULL,
	"chat_id_sealed" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_recipients" (
	"notification_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"escalation_level" integer DEFAULT 0 NOT NULL,
	"read_at" timestamp with time zone,
	"acked_at" timestamp with time zone,
	CONSTRAINT "notification_recipients_notification_id_recipient_id_pk" PRIMARY KEY("notification_id","recipient_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"priority" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"ack_required" boolean NOT NULL,
	"sender_id" text NOT NULL,
	"sender_role" text NOT NULL,
	"related_task_id" uuid,
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"next_escalation_at" timestamp with time zone,
	"escalation_count" integer DEFAULT 0 NOT NULL,
	"escalated_to" uuid,
	"resolved_at" timestamp with time zone,
	"resolution" text
);
--> statement-breakpoint
ALTER TABLE "a2a_conversations" ADD CONSTRAINT "a2a_conversations_participant_a_agents_id_fk" FOREIGN KEY ("participant_a") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_conversations" ADD CONSTRAINT "a2a_conversations_participant_b_agents_id_fk" FOREIGN KEY ("participant_b") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_conversations" ADD CONSTRAINT "a2a_conversations_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_conversations" ADD CONSTRAINT "a2a_conversations_created_by_agents_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_messages" ADD CONSTRAINT "a2a_messages_conversation_id_a2a_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."a2a_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_messages" ADD CONSTRAINT "a2a_messages_sender_id_agents_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_messages" ADD CONSTRAINT "a2a_messages_response_to_id_a2a_messages_id_fk" FOREIGN KEY ("response_to_id") REFERENCES "public"."a2a_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_read_marks" ADD CONSTRAINT "a2a_read_marks_conversation_id_a2a_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."a2a_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_read_marks" ADD CONSTRAINT "a2a_read_marks_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_recipients" ADD CONSTRAINT "notification_recipients_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_recipients" ADD CONSTRAINT "notification_recipients_recipient_id_agents_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_related_task_id_tasks_id_fk" FOREIGN KEY ("related_task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "a2a_conversations_a_idx" ON "a2a_conversations" USING btree ("participant_a","updated_at");--> statement-breakpoint
CREATE INDEX "a2a_conversations_b_idx" ON "a2a_conversations" USING btree ("participant_b","updated_at");--> statement-breakpoint
CREATE INDEX "a2a_conversations_task_idx" ON "a2a_conversations" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "a2a_messages_conversation_idx" ON "a2a_messages" USING btree ("conversation_id","seq");--> statement-breakpoint
CREATE INDEX "notification_recipients_recipient_idx" ON "notification_recipients" USING btree ("recipient_id","read_at");--> statement-breakpoint
CREATE INDEX "notifications_next_escalation_idx" ON "notifications" USING btree ("next_escalation_at");--> statement-breakpoint
CREATE INDEX "notifications_related_task_idx" ON "notifications" USING btree ("related_task_id");