/**
 * The expiry sweep: auto-resolves ack-required notifications whose related task closed, and
 * re-escalates overdue unacked ones to the next agent up the escalation chain of the last holder
 * (the first original recipient, then whoever the previous re-escalation went to). Every change is
 * a compare-and-set, so sweeps running at once on several replicas never double-send.
 */
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { type EventBus, inTransaction } from '../../platform/bus/index.js';
import type { Db } from '../../platform/db/client.js';
import type { Agent, AgentsService } from '../agents/index.js';
import { taskStatusOf } from '../tasks/index.js';
import type { ResolvedRecipient } from './recipients.js';
import { CLOSED_TASK_STATUSES, type EscalationPolicy, nextEscalationAfter, sweepDecision } from './rules.js';
import { type NotificationResolution, notificationRecipients, notifications } from './schema.js';
import { queueSent } from './sent-event.js';
import type { NotificationRow } from './views.js';

export interface SweepReport {
  resolved: number;
  escalated: number;
  /** Overdue ones with nobody left to escalate to: left as permanently unacked. */
  exhausted: number;
}

export interface SweepDeps {
  db: Db;
  bus: EventBus;
  agents: AgentsService;
  policy: EscalationPolicy;
}

/** Candidates examined per sweep; the rest wait for the next one. */
const SWEEP_BATCH = 200;
/** How far up a chain to look for an agent that is not already a recipient. */
const MAX_CHAIN_STEPS = 8;

export async function runSweep(
  deps: SweepDeps,
  now: Date,
  relay: (row: NotificationRow, recipient: ResolvedRecipient) => void,
): Promise<SweepReport> {
  const report: SweepReport = { resolved: 0, escalated: 0, exhausted: 0 };
  const taskStatus = taskStatusOf(notifications.relatedTaskId);
  const candidates = await deps.db
    .select({ notification: notifications, taskStatus })
    .from(notifications)
    .where(
      and(
        eq(notifications.ackRequired, true),
        isNull(notifications.resolvedAt),
        or(lte(notifications.nextEscalationAt, now), inArray(taskStatus, [...CLOSED_TASK_STATUSES])),
      ),
    )
    .orderBy(asc(notifications.nextEscalationAt))
    .limit(SWEEP_BATCH);

  for (const { notification, taskStatus } of candidates) {
    const decision = sweepDecision(
      {
        ackRequired: notification.ackRequired,
        resolvedAt: notification.resolvedAt,
        // An ack resolves the notification at once, so an unresolved one has none.
        acked: false,
        relatedTaskStatus: taskStatus,
        nextEscalationAt: notification.nextEscalationAt,
        escalationCount: notification.escalationCount,
      },
      now,
      deps.policy,
    );
    if (decision.action === 'resolve') {
      if (await resolve(deps.db, notification, decision.resolution, now)) report.resolved++;
    } else if (decision.action === 'escalate') {
      const outcome = await escalate(deps, notification, decision.attempt, now);
      if (outcome === 'exhausted') report.exhausted++;
      if (typeof outcome === 'object') {
        report.escalated++;
        relay(outcome.row, outcome.recipient);
      }
    }
  }
  return report;
}

async function resolve(
  db: Db,
  row: NotificationRow,
  resolution: NotificationResolution,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .update(notifications)
    .set({ resolvedAt: now, resolution, nextEscalationAt: null })
    .where(and(eq(notifications.id, row.id), isNull(notifications.resolvedAt)))
    .returning({ id: notifications.id });
  return updated.length > 0;
}

type EscalationOutcome = 'lost' | 'exhausted' | { row: NotificationRow; recipient: ResolvedRecipient };

/** Claims attempt `attempt` (compare-and-set on the count), adds the target as a recipient, publishes after commit. */
async function escalate(
  deps: SweepDeps,
  row: NotificationRow,
  attempt: number,
  now: Date,
): Promise<EscalationOutcome> {
  const target = await nextTarget(deps, row);
  const unclaimed = and(
    eq(notifications.id, row.id),
    eq(notifications.escalationCount, row.escalationCount),
    isNull(notifications.resolvedAt),
  );
  if (!target) {
    const parked = await deps.db
      .update(notifications)
      .set({ nextEscalationAt: null })
      .where(unclaimed)
      .returning({ id: notifications.id });
    return parked.length > 0 ? 'exhausted' : 'lost';
  }
  return inTransaction(deps.db, deps.bus, async (tx, events) => {
    const [claimed] = await tx
      .update(notifications)
      .set({
        escalationCount: attempt,
        escalatedTo: target.id,
        nextEscalationAt: nextEscalationAfter(attempt, now, deps.policy),
      })
      .where(unclaimed)
      .returning();
    if (!claimed) return 'lost' as const;
    await tx
      .insert(notificationRecipients)
      .values({ notificationId: row.id, recipientId: target.id, escalationLevel: attempt })
      .onConflictDoNothing();
    queueSent(events, claimed, target.id);
    return { row: claimed, recipient: { id: target.id, slug: target.slug } };
  });
}

/** The next agent up the chain of the last holder who is not already a recipient; null at the top. */
async function nextTarget(deps: SweepDeps, row: NotificationRow): Promise<Agent | null> {
  const current = await deps.db
    .select({ id: notificationRecipients.recipientId, level: notificationRecipients.escalationLevel })
    .from(notificationRecipients)
    .where(eq(notificationRecipients.notificationId, row.id))
    .orderBy(asc(notificationRecipients.escalationLevel), asc(notificationRecipients.recipientId));
  const already = new Set(current.map((r) => r.id));
  const holderId = row.escalatedTo ?? current[0]?.id;
  let holder = holderId ? await deps.agents.resolve(holderId) : null;
  for (let step = 0; holder && step < MAX_CHAIN_STEPS; step++) {
    const target = await deps.agents.escalationTarget(holder);
    if (!target || !already.has(target.id)) return target;
    holder = target;
  }
  return null;
}
