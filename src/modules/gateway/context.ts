/**
 * What the gateway's verbs run on: the other modules' services (through their index.ts), the
 * database for the briefing, the git port, the breaker and the clock; and the shape of one verb call and of what a verb returns.
 */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { A2aService, UnreadSummary } from '../a2a/index.js';
import type { AgentsService } from '../agents/index.js';
import type { FindingsService } from '../findings/index.js';
import type { GatewayRoute, VerbSpec } from '../lifecycle/index.js';
import type { NotificationsService, PendingSummary } from '../notifications/index.js';
import type { Actor, TasksService, TaskView } from '../tasks/index.js';
import type { UsageService } from '../usage/index.js';
import type { GatewayGit } from './git-port.js';

/** The system module's rate-limit parking, as the gateway reports an agent's throttled provider to it. */
export interface RateLimitReporter {
  report(report: {
    kind: 'rate_limited' | 'overloaded';
    provider?: string | null;
    agent?: { id: string; slug: string; role: string } | null;
    retryAfterSeconds?: number | null;
  }): Promise<{ provider: string; resume_at: string; retry_after_seconds: number | null }>;
}

/** The caller's unread A2A messages and pending notifications (briefing.ts reads them). */
export interface Inboxes {
  a2a: UnreadSummary;
  notifications: PendingSummary;
}

export interface GatewayServices {
  /** For the reads the gateway composes from other modules' SQL expressions (the context briefing). */
  readonly db: Db;
  readonly tasks: TasksService;
  readonly agents: AgentsService;
  readonly a2a: A2aService;
  readonly notifications: NotificationsService;
  readonly findings: FindingsService;
  readonly git: GatewayGit;
  readonly clock: Clock;
  /** Where i_am_blocked with a rate-limit reason_kind parks the provider (absent: it is refused). */
  readonly rateLimits?: RateLimitReporter;
  /** The usage ledger (report_usage). */
  readonly usage: UsageService;
}

/** One call of a verb (or do-tool), after authorization, input check and the task's state gate. */
export interface VerbCall<Input extends object = object> {
  /** The caller's route (null for a do-tool called by a role without one). */
  readonly route: GatewayRoute | null;
  readonly verb: VerbSpec;
  readonly actor: Actor;
  readonly input: Input;
  /** The task named by `task_id` (verbs that take one). */
  readonly task: TaskView | null;
  readonly s: GatewayServices;
}

/** What a verb answers; the runner turns it into the success envelope. */
export interface VerbResult {
  /** `ok` (default), `idle`, `idle_with_unread`, `noop`… */
  readonly status?: string;
  /** The task after the call (its state and next verbs go into the envelope); default: the call's task. */
  readonly task?: TaskView | null;
  /** The verb to call next; default: suggested from the role and the task's state. */
  readonly next?: string | null;
  readonly evidence?: Record<string, unknown>;
  /** Verb-specific payload (the created subtask, the commit, messages read…). */
  readonly data?: Record<string, unknown>;
  /** A full briefing (with the task hand-off digest) rather than the light one. */
  readonly fullBriefing?: boolean;
  /** Something best-effort after the committed change went wrong (a notification, say). */
  readonly warning?: string;
  /** The caller's inboxes, when the verb read them and changed nothing since (the briefing reuses them). */
  readonly inboxes?: Inboxes;
}

export type VerbHandler = (call: VerbCall) => Promise<VerbResult>;

/** The task a task-taking verb was called on (the runner loaded it; never null there). */
export const taskOf = (call: VerbCall): TaskView => {
  if (!call.task) throw new Error(`verb ${call.verb.name} ran without its task`);
  return call.task;
};
