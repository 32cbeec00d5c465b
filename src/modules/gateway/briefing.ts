/**
 * The envelope's `context_briefing` (reference A §8.6): what the agent should know before its next
 * move. Always: unread A2A (count and up to 10 conversations) and pending notifications (counts
 * and up to 10). A full briefing (claims, give_me_work, triage, resume) adds the task hand-off
 * digest: the task, its parents, branch and pull request, recent commits, notes and open findings.
 * Every part is best-effort: a part that cannot be read says so and never fails the verb.
 */
import { renderFinding } from '../findings/index.js';
import type { Actor, TaskView } from '../tasks/index.js';
import type { GatewayServices } from './context.js';

const LIST_CAP = 10;

const unavailable = (error: unknown) => ({
  unavailable: error instanceof Error ? error.message : String(error),
});

async function unreadA2a(s: GatewayServices, actor: Actor) {
  const inbox = await s.a2a.inbox(actor);
  return {
    total: inbox.total_unread,
    unanswered_requests: inbox.unanswered_requests,
    conversations: inbox.conversations.slice(0, LIST_CAP).map((c) => ({
      conversation_id: c.id,
      with: c.participant_a.id === actor.id ? c.participant_b.slug : c.participant_a.slug,
      topic: c.topic,
      task_id: c.task_id,
      unread: c.unread ?? 0,
    })),
    ...(inbox.total_unread > 0 ? { hint: 'read them with the read_a2a tool' } : {}),
  };
}

async function pendingNotifications(s: GatewayServices, actor: Actor) {
  const list = await s.notifications.list(actor.id, { unreadOnly: true, limit: LIST_CAP });
  return {
    unread: list.unread_count,
    pending_ack: list.pending_ack_count,
    items: list.notifications.map((n) => ({
      id: n.id,
      type: n.type,
      priority: n.priority,
      subject: n.subject,
      ack_required: n.ack_required,
      related_task_id: n.related_task_id,
      sent_at: n.sent_at,
    })),
  };
}

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
  const ledger = await s.findings.ledger(taskId, { limit: 100 });
  return ledger.findings
    .filter((f) => f.status === 'open')
    .slice(0, LIST_CAP)
    .map(renderFinding);
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

export async function contextBriefing(
  s: GatewayServices,
  actor: Actor,
  task: TaskView | null,
  full: boolean,
): Promise<Record<string, unknown>> {
  const [a2a, notifications, handoff] = await Promise.all([
    unreadA2a(s, actor).catch(unavailable),
    pendingNotifications(s, actor).catch(unavailable),
    full && task ? taskHandoff(s, task).catch(unavailable) : Promise.resolve(undefined),
  ]);
  return {
    unread_a2a: a2a,
    pending_notifications: notifications,
    ...(handoff ? { task_handoff: handoff } : {}),
  };
}
