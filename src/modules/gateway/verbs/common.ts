/**
 * Verbs every working role shares (reference A §9.1): resume, unclaim, i_am_blocked and
 * i_am_idle. Blocking escalates: the task goes blocked (its owner and state snapshotted for the
 * unblock) and whoever the agent escalates to is notified.
 */
import { type Static, Type } from 'typebox';
import { PM_ROLES, type TaskStatus } from '../../lifecycle/index.js';
import type { TaskView } from '../../tasks/index.js';
import { taskOf, type VerbCall, type VerbResult } from '../context.js';
import { reject } from '../envelope.js';
import { Input, INPUT_LIMITS as L, nothing, Reason, TaskId, Text, taskOnly } from '../input-fields.js';
import { defineVerb } from './define.js';
import { appendJournal, asAgent, bestEffort, transition } from './support.js';

export const resume = defineVerb({
  name: 'resume',
  input: taskOnly('Resume your paused task.'),
  breaker: 'exit',
  suggestWhen: (task) => task.status === 'paused',
  run: async (call) => ({ task: await transition(call, taskOf(call), 'resume'), fullBriefing: true }),
});

export const unclaim = defineVerb({
  name: 'unclaim',
  input: Input(
    {
      task_id: TaskId(),
      reason: Type.Optional(Type.String({ maxLength: 2_000, description: 'Why you give it up.' })),
    },
    'Give the task up; it goes back to its queue.',
  ),
  breaker: 'exit',
  exitRank: 2,
  async run(call) {
    const task = await transition(call, taskOf(call), 'unclaim', call.input.reason);
    return { task, next: 'give_me_work' };
  },
});

const IAmBlockedInput = Input(
  {
    task_id: TaskId(),
    reason: Reason(`What blocks you (at least ${L.blockReasonMin} characters).`, L.blockReasonMin),
    blocker_type: Type.Enum(['external', 'internal', 'question', 'dependency'], {
      description: 'external | internal | question | dependency.',
    }),
    what_needed: Text(1, 2_000, 'What would unblock you, and from whom.'),
    reason_kind: Type.Optional(
      Type.Enum(['rate_limited', 'overloaded'], {
        description:
          'Set when your model provider answered 429 (rate_limited) or overloaded: the provider is parked until ' +
          'its window ends, your task stays as it is, and you are started again once it recovers.',
      }),
    ),
    provider: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'With reason_kind: the provider that refused (default: the one you are routed to).',
      }),
    ),
    retry_after_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 86_400,
        description: "With reason_kind: the provider's Retry-After, in seconds, if it gave one.",
      }),
    ),
  },
  'Report a blocker; the task is escalated one rung up the chain. A provider rate limit (reason_kind) parks the provider instead and leaves the task as it is.',
);
type IAmBlockedInput = Static<typeof IAmBlockedInput>;

export const iAmBlocked = defineVerb({
  name: 'i_am_blocked',
  input: IAmBlockedInput,
  exitRank: 1,
  stateRemediate: blockedRemediate,
  // A provider rate limit leaves the task as it is, so it may be reported from any state.
  skipsStateGate: (body) => body.reason_kind !== undefined,
  run: iAmBlockedRun,
});

async function iAmBlockedRun(call: VerbCall<IAmBlockedInput>): Promise<VerbResult> {
  const { input } = call;
  if (input.reason_kind) return providerThrottled(call, input, input.reason_kind);
  const before = taskOf(call);
  const reason = `${input.blocker_type}: ${input.reason.trim()} — needs: ${input.what_needed.trim()}`;
  const task = await transition(call, before, 'block', reason);
  const target = await call.s.agents.escalationTarget(asAgent(call.actor));
  const warnings = await Promise.all([
    bestEffort(
      () => appendJournal(call.s, task, call.actor, { scope: 'struggle', text: reason }),
      'the journal entry',
    ),
    target
      ? bestEffort(
          () =>
            call.s.notifications.send(
              {
                type: 'blocker_escalation',
                priority: 'high',
                recipients: [target.id],
                subject: `${call.actor.slug} is blocked on “${task.title}”`,
                body: `${reason}\n\nUnblock it with unblock (task ${task.id}) once resolved.`,
                related_task_id: task.id,
              },
              { id: call.actor.id, role: call.actor.role },
            ),
          'notifying the escalation target',
        )
      : Promise.resolve(undefined),
  ]);
  const warning = warnings.filter(Boolean).join('; ');
  return {
    task,
    next: 'i_am_idle',
    data: { escalated_to: target?.slug ?? null },
    ...(warning ? { warning } : {}),
  };
}

/**
 * i_am_blocked with a rate-limit reason_kind: the provider is parked (system module) and the task
 * left exactly as it is; the agent stops, and the dispatcher starts it again once the provider is lifted.
 */
async function providerThrottled(
  call: VerbCall,
  input: IAmBlockedInput,
  kind: 'rate_limited' | 'overloaded',
): Promise<VerbResult> {
  if (!call.s.rateLimits) {
    throw reject(
      'invalid_state',
      'rate-limit parking is not available here',
      'Report it without reason_kind.',
    );
  }
  const { id, slug, role } = call.actor;
  const entry = await call.s.rateLimits.report({
    kind,
    provider: input.provider ?? null,
    agent: { id, slug, role },
    retryAfterSeconds: input.retry_after_seconds ?? null,
  });
  return {
    status: 'rate_limited',
    task: taskOf(call),
    next: null,
    data: {
      provider: entry.provider,
      resume_at: entry.resume_at,
      retry_after_seconds: entry.retry_after_seconds,
      what_to_do: 'Stop now. Your task stays as it is; you are started again once the provider recovers.',
    },
  };
}

/** What to do instead of i_am_blocked from a state it is not valid in. */
function blockedRemediate(status: TaskStatus): string | undefined {
  if (status === 'awaiting_documentation') return 'Your part is documentation: finish it with i_documented.';
  if (status === 'awaiting_qa' || status === 'verifying') return 'Your part is done; call i_am_idle.';
  return undefined;
}

const mine = async (call: VerbCall, status: TaskStatus[]): Promise<TaskView[]> =>
  (await call.s.tasks.list({ assigned_to: call.actor.id, status, limit: 100 })).tasks;

export const iAmIdle = defineVerb({
  name: 'i_am_idle',
  input: nothing('No input: stop for now.'),
  breaker: 'exit',
  exitRank: 3,
  fallbackRank: 3,
  run: iAmIdleRun,
});

async function iAmIdleRun(call: VerbCall): Promise<VerbResult> {
  const { actor, s } = call;
  const waiting = (await mine(call, ['pending'])).filter((task) => !task.held);
  if (waiting.length > 0) {
    const verb = (PM_ROLES as readonly string[]).includes(actor.role) ? 'i_will_plan' : 'i_will_work_on';
    throw reject(
      'invalid_state',
      `task ${waiting[0]!.id} is assigned to you and waits for you`,
      `Call ${verb} on it.`,
      {
        reason: 'work_assigned',
        details: { task_id: waiting[0]!.id },
      },
    );
  }
  if ((PM_ROLES as readonly string[]).includes(actor.role)) {
    const reviews = await mine(call, ['awaiting_pm_review']);
    if (reviews.length > 0) {
      throw reject(
        'invalid_state',
        `task ${reviews[0]!.id} waits for your review`,
        'Review it: complete or request_changes.',
        { reason: 'review_waiting', details: { task_id: reviews[0]!.id } },
      );
    }
  }
  const paused: string[] = [];
  for (const task of await mine(call, ['in_progress'])) {
    const warning = await bestEffort(
      () => s.tasks.transition(task, 'pause', actor, { reason: 'agent idle' }),
      'pause',
    );
    if (!warning) paused.push(task.id);
  }
  await s.agents.recordState(actor.id, { status: 'idle', currentTaskId: null });
  const [inbox, notifications] = await Promise.all([
    s.a2a.inbox(actor),
    s.notifications.list(actor.id, { pendingAckOnly: true, limit: 1 }),
  ]);
  const unread = inbox.total_unread > 0 || notifications.pending_ack_count > 0;
  return {
    status: unread ? 'idle_with_unread' : 'idle',
    task: null,
    next: unread ? 'read_a2a' : null,
    data: { paused_tasks: paused },
  };
}
