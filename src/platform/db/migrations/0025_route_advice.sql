CREATE TABLE "route_advice" (
	"role" text NOT NULL,
	"current" text NOT NULL,
	"candidate" text NOT NULL,
	"told_at" timestamp with time zone NOT NULL,
	CONSTRAINT "route_advice_role_current_candidate_pk" PRIMARY KEY("role","current","candidate")
);
