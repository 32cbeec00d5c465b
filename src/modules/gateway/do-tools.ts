/**
 * The content tools of `POST /api/v1/do` (reference A §9.9), for every role: commit (developer and
 * documenter, on the task they hold the claim of; the git port validates and cleans the message
 * and adds the `[id8] ` prefix, refusing a subject that says nothing), note (the journal, or the role's hand-off
 * section), dm (agent-to-agent: the open conversation with that agent, else a new one), read_a2a
 * (unread messages, marked read), read_task (a task of the caller's team as it stands, with its
 * subtasks: agents read through the gateway only — the domain routes are not reachable from their
 * sandbox), evidence and report_usage (tokens the agent spent on its own model calls, into the usage
 * ledger).
 */
import { isUuid } from '../../platform/ids.js';
import { teamMatches } from '../lifecycle/index.js';
import type { TaskView } from '../tasks/index.js';
import { readInboxes } from './briefing.js';
import type { VerbCall, VerbResult } from './context.js';
import { taskOf } from './context.js';
import { reject } from './envelope.js';
import { assembleEvidence } from './evidence.js';
import type { DoTool, DoToolInput } from './verb-inputs.js';
import type { BreakerClass } from './verbs/index.js';
import { appendJournal, gitAgent } from './verbs/support.js';

async function commit(call: VerbCall<DoToolInput<'commit'>>): Promise<VerbResult> {
  const { actor, s } = call;
  const { input } = call;
  const task = taskOf(call);
  if (task.active_claimant_id !== actor.id) {
    throw reject(
      'not_authorized',
      `you do not hold the claim of task ${task.id}`,
      'Commit on the task you hold (give_me_work).',
      {
        reason: 'not_claimant',
      },
    );
  }
  const made = await s.git.commit(task, gitAgent(actor), {
    message: input.message,
    ...(input.files ? { files: input.files } : {}),
  });
  // The commit is progress on the task: audited, so the respawn breaker and spawn waste see it.
  const updated = await s.tasks.recordFacts(task.id, {}, actor, {
    action: 'commit',
    data: { sha: made.sha },
  });
  return { task: updated, data: { commit: made } };
}

const NOTE_SECTION = 'handoff';

async function note(call: VerbCall<DoToolInput<'note'>>): Promise<VerbResult> {
  const { actor, s } = call;
  const { input } = call;
  const task = taskOf(call);
  requireTeam(call, task, 'write on');
  const scope = input.scope ?? 'note';
  const text = input.text.trim();
  const updated =
    scope === NOTE_SECTION
      ? await s.tasks.recordFacts(
          task.id,
          { notes: { [`${actor.role}_handoff`]: { text, by: actor.slug, at: s.clock.now().toISOString() } } },
          actor,
          { action: 'note', data: { scope } },
        )
      : await appendJournal(s, task, actor, { scope, text });
  return { task: updated, data: { scope } };
}

async function dm(call: VerbCall<DoToolInput<'dm'>>): Promise<VerbResult> {
  const { actor, s } = call;
  const { input } = call;
  const open = await s.a2a.conversations(actor, {
    withAgent: input.to,
    status: 'open',
    ...(input.task_id ? { taskId: input.task_id } : {}),
    limit: 1,
  });
  const existing = open[0];
  if (existing) {
    const sent = await s.a2a.send({
      conversationId: existing.id,
      sender: actor,
      body: input.body,
      requiresResponse: input.requires_response === true,
    });
    return {
      task: call.task,
      data: { conversation_id: existing.id, message_id: sent.message.id, duplicate: sent.duplicate },
    };
  }
  const conversation = await s.a2a.openConversation(actor, {
    targetAgent: input.to,
    taskId: input.task_id ?? null,
    initialMessage: input.body,
    requiresResponse: input.requires_response === true,
  });
  return { task: call.task, data: { conversation_id: conversation.id, opened: true } };
}

/** Reads (and marks read) the named conversation, else the ones the briefing lists as unread. */
async function readA2a(call: VerbCall<DoToolInput<'read_a2a'>>): Promise<VerbResult> {
  const { actor, s } = call;
  const { input } = call;
  const limit = input.limit ?? 20;
  const inboxes = input.conversation_id ? undefined : await readInboxes(s, actor);
  const ids = inboxes ? inboxes.a2a.conversations.map((c) => c.id) : [input.conversation_id!];
  const conversations = [];
  for (const id of ids) {
    const page = await s.a2a.messages(actor, id, { limit });
    await s.a2a.markRead(actor, id);
    conversations.push({
      conversation_id: id,
      messages: page.messages.map((m) => ({
        id: m.id,
        from: m.sender_slug,
        body: m.body,
        kind: m.kind,
        at: m.created_at,
      })),
      has_more: page.has_more,
    });
  }
  // Nothing unread was read: the inboxes just read are the briefing's too.
  return { task: null, data: { conversations }, ...(inboxes && ids.length === 0 ? { inboxes } : {}) };
}

/** The caller's team must own the task (org-wide roles read every team's), as for notes. */
function requireTeam(call: VerbCall, task: TaskView, verb: string): void {
  const { actor } = call;
  if (teamMatches(actor.role, actor.team, task.team)) return;
  throw reject(
    'not_authorized',
    `a ${actor.role} of team ${actor.team ?? 'none'} may not ${verb} a ${task.team} task`,
    'Work on tasks of your own team.',
    { reason: 'team_mismatch' },
  );
}

/** Subtasks listed at most (a PM's delegation stays far below). */
const SUBTASKS_SHOWN = 100;

async function readTask(call: VerbCall): Promise<VerbResult> {
  const task = taskOf(call);
  requireTeam(call, task, 'read');
  const { tasks: subtasks } = await call.s.tasks.list({ parent_task_id: task.id, limit: SUBTASKS_SHOWN });
  return {
    task,
    data: {
      task: {
        id: task.id,
        title: task.title,
        description: task.description,
        status: task.status,
        team: task.team,
        assigned_to: task.assigned_to,
        active_claimant_id: task.active_claimant_id,
        parent_task_id: task.parent_task_id,
        acceptance_criteria: task.acceptance_criteria,
        branch_name: task.branch_name,
        pr_created: task.pr_created,
        pr_url: task.pr_url,
        revision_count: task.revision_count,
      },
      subtasks: subtasks.map((sub) => ({
        id: sub.id,
        title: sub.title,
        status: sub.status,
        assigned_to: sub.assigned_to,
      })),
    },
  };
}

async function evidence(call: VerbCall): Promise<VerbResult> {
  const task = taskOf(call);
  return { task, evidence: await assembleEvidence(call.s, task, { priorFindings: true }) };
}

/** Records tokens the agent spent on its own model calls (cost from the price table unless given). */
async function reportUsage(call: VerbCall<DoToolInput<'report_usage'>>): Promise<VerbResult> {
  const { actor, s } = call;
  const { input } = call;
  const row = await s.usage.record({
    agent_id: isUuid(actor.id) ? actor.id : null,
    task_id: call.task?.id ?? null,
    provider: input.provider ?? 'reported',
    model: input.model,
    input_tokens: input.input_tokens,
    output_tokens: input.output_tokens,
    cache_read_tokens: input.cache_read_tokens ?? 0,
    cache_write_tokens: input.cache_write_tokens ?? 0,
    cost_usd: input.cost_usd ?? null,
    source: 'reported',
  });
  return { task: call.task, data: { usage_id: row.id, cost_usd: row.costUsd } };
}

interface DoToolDefinition<T extends DoTool> {
  readonly run: (call: VerbCall<DoToolInput<T>>) => Promise<VerbResult>;
  /** How the circuit breaker treats the tool (default: counted). */
  readonly breaker?: BreakerClass;
}

export const DO_TOOL_DEFINITIONS: { readonly [T in DoTool]: DoToolDefinition<T> } = {
  commit: { run: commit },
  note: { run: note },
  dm: { run: dm },
  read_a2a: { run: readA2a, breaker: 'exit' },
  read_task: { run: readTask, breaker: 'exit' },
  evidence: { run: evidence, breaker: 'exit' },
  report_usage: { run: reportUsage },
};

/** The handler of a do-tool; the runner checks the body against the tool's schema before calling it. */
export const doToolHandler = (tool: DoTool) =>
  DO_TOOL_DEFINITIONS[tool].run as (call: VerbCall) => Promise<VerbResult>;
