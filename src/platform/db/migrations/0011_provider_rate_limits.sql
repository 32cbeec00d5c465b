CREATE TABLE "provider_rate_limits" (
	"provider" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"hit_at" timestamp with time zone NOT NULL,
	"resume_at" timestamp with time zone NOT NULL,
	"retry_after_seconds" integer,
	"affected_agents" text[] DEFAULT '{}' NOT NULL,
	"probe_failures" integer DEFAULT 0 NOT NULL,
	"ceo_notified" boolean DEFAULT false NOT NULL
);
