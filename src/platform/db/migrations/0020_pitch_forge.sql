CREATE TABLE "pitch_forge" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"api_url" text NOT NULL,
	"owner" text NOT NULL,
	"private" boolean NOT NULL,
	"token_sealed" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
