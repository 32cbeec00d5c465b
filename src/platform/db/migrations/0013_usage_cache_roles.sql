ALTER TABLE "usage_records" ADD COLUMN "agent_role" text;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "agent_team" text;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "source" text DEFAULT 'process' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "cache_read_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_records" ADD COLUMN "cache_write_tokens" integer DEFAULT 0 NOT NULL;