/**
 * The envelope's `context_briefing` (reference A §8.6): what the agent should know before its next
 * move. Always: unread A2A (count and up to 10 conversations) and pending notifications (counts
 * and up to 10), read together in one statement from the A2A and notifications modules' summary
 * expressions. A full briefing (claims, give_me_work, triage, resume) adds the task hand-off
 * digest: the task, its parents, branch and pull request, recent commits, notes and open findings.
 * Every part is best-effort: a part that cannot be read says so and never fails the verb.
 */
import { sql } from 'drizzle-orm';
import { perDatabase } from '../../platform/db/client.js';
import { safeFailureMessage } from '../../platform/store-errors.js';
import { type UnreadSummary, unreadSummarySql } from '../a2a/index.js';
import { renderFinding } from '../findings/index.js';
import { type PendingSummary, pendingSummarySql } from '../notifications/index.js';
import type { Actor, TaskView } from '../tasks/index.js';
import type { GatewayServices, Inboxes } from './context.js';

const LIST_CAP = 10;

const unavailable = (error: unknown) => ({ unavailable: safeFailureMessage(error) });

/** Both summaries as one prepared statement (per database handle), for an agent. */
const inboxesStatement = perDatabase((db) => {
  const agent = sql.placeholder('agent');
  // Each expression is nested in a wrapper: Drizzle strips the table from the columns written
  // directly in a select-list expression, which would make the summaries' joins ambiguous.
  return db
    .select({
      a2a: sql<UnreadSummary>`${unreadSummarySql(db, agent, LIST_CAP)}`,
      notifications: sql<PendingSummary>`${pendingSummarySql(db, agent, LIST_CAP)}`,
    })
    .from(sql`(select 1) as one`)
    .prepare('gateway_inboxes');
});

/** What the briefing shows of the caller's inboxes: its unread A2A and pending notifications. */
/** The caller's unread A2A (the latest 10 conversations listed) and pending notifications, in one statement. */
export async function readInboxes(s: GatewayServices, actor: Actor): Promise<Inboxes> {
  const [row] = await inboxesStatement(s.db).execute({ agent: actor.id });
  return row as Inboxes;
}

const unreadA2a = (a2a: UnreadSummary) => ({
  total: a2a.total_unread,
  unanswered_requests: a2a.unanswered_requests,
  conversations: a2a.conversations.map((c) => ({
    conversation_id: c.id,
    with: c.with,
    topic: c.topic,
    task_id: c.task_id,
    unread: c.unread,
  })),
  ...(a2a.total_unread > 0 ? { hint: 'read them with the read_a2a tool' } : {}),
});

const pendingNotifications = (pending: PendingSummary) => ({
  unread: pending.unread,
  pending_ack: pending.pending_ack,
  items: pending.items.map((n) => ({ ...n, sent_at: new Date(n.sent_at).toISOString() })),
});

/** Up to three ancestors, nearest first: what the task is part of. */
export async function parentContext(s: GatewayServices, task: TaskView) {
  const chain: { id: string; title: string; status: string; description: string }[] = [];
  let parentId = task.parent_task_id;
  while (parentId && chain.length < 3) {
    const parent = await s.tasks.find(parentId);
    if (!parent) break;
    chain.push({
      id: parent.id,
      title: parent.title,
      status: parent.status,
      description: parent.description.slice(0, 300),
    });
    parentId = parent.parent_task_id;
  }
  return chain;
}

/** The open findings of the task, rendered one per line (newest round first, at most 10). */
export async function openFindings(s: GatewayServices, taskId: string): Promise<string[]> {
  return (await s.findings.open(taskId, LIST_CAP)).map(renderFinding);
}

async function taskHandoff(s: GatewayServices, task: TaskView) {
  const [parents, findings, commits] = await Promise.all([
    parentContext(s, task),
    openFindings(s, task.id).catch(unavailable),
    s.git.commitsOf(task).catch(unavailable),
  ]);
  return {
    task_id: task.id,
    title: task.title,
    status: task.status,
    description: task.description.slice(0, 2_000),
    acceptance_criteria: task.acceptance_criteria,
    plan: task.plan,
    notes: task.notes,
    branch_name: task.branch_name,
    pr_number: task.pr_number,
    pr_url: task.pr_url,
    revision_count: task.revision_count,
    ...(Array.isArray(commits)
      ? {
          commit_count: commits.length,
          recent_commits: commits.slice(0, 5).map((c) => ({ sha: c.sha, message: c.message.split('\n')[0] })),
        }
      : { commits: commits }),
    parent_context: parents,
    open_findings: findings,
  };
}

/** The briefing; `inboxes` when the verb has just read them and changed nothing since. */
export async function contextBriefing(
  s: GatewayServices,
  actor: Actor,
  task: TaskView | null,
  full: boolean,
  inboxes?: Inboxes,
): Promise<Record<string, unknown>> {
  const [read, handoff] = await Promise.all([
    inboxes ?? readInboxes(s, actor).catch((error: unknown) => ({ failed: unavailable(error) })),
    full && task ? taskHandoff(s, task).catch(unavailable) : Promise.resolve(undefined),
  ]);
  return {
    unread_a2a: 'failed' in read ? read.failed : unreadA2a(read.a2a),
    pending_notifications: 'failed' in read ? read.failed : pendingNotifications(read.notifications),
    ...(handoff ? { task_handoff: handoff } : {}),
  };
}
