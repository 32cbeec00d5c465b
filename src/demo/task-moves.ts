/**
 * What `gaffer demo` prints while it runs: each move of the sample task and of its subtasks
 * (state, agent, verb) as it happens, then — when the task awaits the CEO — the exact command that
 * approves and merges it. Task changes arrive on the event bus; the audit trail says who did what.
 */
import type { EventBus } from '../platform/bus/index.js';

/** One entry of a task's audit trail (GET /api/tasks/:id/events). */
export interface AuditEntry {
  id: number;
  actor_id: string;
  action: string;
  from_status: string | null;
  to_status: string | null;
}

/** A move is what the kanban shows: the task created, claimed, or changing column. */
export function isMove(entry: AuditEntry): boolean {
  return entry.action === 'create' || entry.action === 'claim' || entry.from_status !== entry.to_status;
}

/** `move: "Title" in_progress → awaiting_pr_review by main-pm (submit_for_review)` */
export function formatMove(title: string, entry: AuditEntry, agent: string): string {
  const from = entry.from_status ?? 'new';
  const to = entry.to_status ?? from;
  const state = from === to ? to : `${from} → ${to}`;
  return `move: "${title}" ${state} by ${agent} (${entry.action})`;
}

/** The command a person runs to approve and merge `taskId` (the token is the CEO's, expiring). */
export function approveCommand(baseUrl: string, taskId: string, ceoToken: string): string {
  return `curl -fsS -X POST -H 'X-Agent-Token: ${ceoToken}' ${baseUrl}/api/tasks/${taskId}/approve-and-merge`;
}

/** The command a person runs to send `taskId` back for changes, saying what to change. */
export function requestChangesCommand(baseUrl: string, taskId: string, ceoToken: string): string {
  return (
    `curl -fsS -X POST -H 'X-Agent-Token: ${ceoToken}' -H 'Content-Type: application/json' ` +
    `-d '{"reason":"Say what to change, in ten characters or more."}' ${baseUrl}/api/tasks/${taskId}/request-changes`
  );
}

/** Reads the API as the CEO (the demo's own server, in-process). */
export type ReadApi = (url: string) => Promise<{ status: number; body: Record<string, unknown> }>;

export interface TaskMovesOptions {
  bus: EventBus;
  read: ReadApi;
  rootTaskId: string;
  /** Called after each move that puts the root task before the CEO (again after a requested rework). */
  onAwaitingCeo(): void;
  write(line: string): void;
}

/** Prints moves until stopped (or until the root task is done). */
export function watchTaskMoves(options: TaskMovesOptions): { stop(): void; idle(): Promise<void> } {
  const { bus, read, rootTaskId, write } = options;
  const tracked = new Map<string, { title: string; seen: number }>();
  const unrelated = new Set<string>();
  const slugs = new Map<string, string>();
  let queue = Promise.resolve();

  const agentName = async (id: string) => {
    let slug = slugs.get(id);
    if (!slug) {
      const agent = await read(`/api/agents/${id}`);
      slug = agent.status === 200 ? String(agent.body.slug) : id;
      slugs.set(id, slug);
    }
    return slug;
  };

  const track = async (taskId: string): Promise<boolean> => {
    if (tracked.has(taskId)) return true;
    if (unrelated.has(taskId)) return false;
    const task = await read(`/api/tasks/${taskId}`);
    const parent = task.body.parent_task_id as string | null | undefined;
    if (task.status === 200 && (taskId === rootTaskId || (parent && tracked.has(parent)))) {
      tracked.set(taskId, { title: String(task.body.title), seen: 0 });
      return true;
    }
    unrelated.add(taskId);
    return false;
  };

  const catchUp = async (taskId: string) => {
    if (!(await track(taskId))) return;
    const state = tracked.get(taskId)!;
    const trail = await read(`/api/tasks/${taskId}/events`);
    for (const entry of (trail.body.events ?? []) as AuditEntry[]) {
      if (entry.id <= state.seen) continue;
      state.seen = entry.id;
      if (isMove(entry)) write(formatMove(state.title, entry, await agentName(entry.actor_id)));
      const arrives = entry.to_status === 'awaiting_ceo_approval' && entry.from_status !== entry.to_status;
      if (taskId === rootTaskId && arrives) options.onAwaitingCeo();
    }
  };

  const enqueue = (taskId: string) => {
    queue = queue.then(() => catchUp(taskId)).catch(() => undefined);
  };
  const unsubscribe = bus.subscribe('TASK_CHANGED', (event) => enqueue(event.data.task_id));
  enqueue(rootTaskId);
  return {
    stop: unsubscribe,
    idle: () => queue,
  };
}
