/**
 * The inbox activity feed's lines, as pure functions: a task audit row ("be-pm approved “…” from
 * awaiting pm review to completed", "CI-watch opened “…”") and a maintenance-pause change, newest first.
 */
export interface ActivityEvent {
  id: number;
  task_id: string;
  actor_id: string;
  actor_role: string;
  action: string;
  from_status: string | null;
  to_status: string | null;
  created_at: string;
  task_title: string;
  task_source: string;
}

export interface PauseEvent {
  scope: string;
  paused: boolean;
  mode: string | null;
  reason: string | null;
  /** When it happened (paused_at for a pause; the frame's arrival for a resume). */
  at: string;
}

export interface FeedLine {
  key: string;
  at: string;
  kind: 'move' | 'origination' | 'pause';
  who: string;
  text: string;
  taskId: string | null;
}

const words = (value: string) => value.replaceAll('_', ' ');

/**
 * How an audited action reads after the actor ("be-pm approved “…”"; `{task}` places the task's title,
 * else it follows); others read as their words.
 */
const PHRASES: Record<string, string> = {
  activate: 'activated',
  claim: 'claimed',
  start: 'started',
  block: 'blocked',
  escalate_up: 'escalated',
  pause: 'paused',
  resume: 'resumed',
  unblock: 'unblocked',
  submit_verification: 'submitted {task} for verification',
  submit_qa: 'sent {task} to QA',
  qa_pass: 'passed QA of',
  qa_fail: 'failed QA of',
  docs_complete: 'documented',
  submit_for_review: 'submitted {task} for review',
  pr_pass: 'passed the PR review of',
  pr_fail: 'failed the PR review of',
  pr_review_done: 'finished the PR review of',
  pr_waived: 'waived the PR review of',
  submit_pm_review: 'sent {task} to PM review',
  complete: 'completed',
  request_changes: 'asked for changes on',
  escalate_to_ceo: 'escalated {task} to the CEO',
  ceo_approve: 'approved',
  ceo_reject: 'rejected',
  ceo_reject_to_pool: 'rejected {task} to the pool',
  cancel: 'cancelled',
  unclaim: 'released',
  release: 'released',
  update: 'edited',
  note: 'noted',
  open_pr: 'opened a pull request for',
  reassign: 'reassigned',
  approve_and_start: 'approved and started {task}',
  admin_override: 'overrode',
};

/** `ceo_approve` → "approved “title”"; a verb's notes (`complete_notes`) → "noted “title” (complete)". */
function phrase(action: string, title: string): string {
  const task = `“${title}”`;
  if (action.endsWith('_notes')) return `noted ${task} (${words(action.slice(0, -'_notes'.length))})`;
  const said = PHRASES[action] ?? words(action);
  return said.includes('{task}') ? said.replace('{task}', task) : `${said} ${task}`;
}

/** `engine:ci_watch` → `CI-watch`; any other engine by its name. */
export function engineName(source: string): string | null {
  if (!source.startsWith('engine:')) return null;
  const name = source.slice('engine:'.length);
  const known: Record<string, string> = {
    ci_watch: 'CI-watch',
    dep_update: 'Dependency-update',
    release: 'Release',
  };
  return known[name] ?? words(name);
}

/** `nameOf` turns an actor id into a slug (the roster); unknown actors are named by their role. */
export function taskLine(
  event: ActivityEvent,
  nameOf: (id: string) => string | undefined = () => undefined,
): FeedLine {
  const actor = nameOf(event.actor_id) ?? words(event.actor_role);
  const engine = engineName(event.task_source);
  const base = { key: `task-${event.id}`, at: event.created_at, taskId: event.task_id };
  if (event.action === 'create') {
    return engine
      ? { ...base, kind: 'origination', who: engine, text: `opened “${event.task_title}”` }
      : { ...base, kind: 'move', who: actor, text: `opened “${event.task_title}”` };
  }
  const move =
    event.from_status && event.to_status && event.from_status !== event.to_status
      ? ` from ${words(event.from_status)} to ${words(event.to_status)}`
      : '';
  return { ...base, kind: 'move', who: actor, text: `${phrase(event.action, event.task_title)}${move}` };
}

export function pauseLine(event: PauseEvent): FeedLine {
  return {
    key: `pause-${event.scope}-${event.at}-${event.paused}`,
    at: event.at,
    kind: 'pause',
    who: 'ceo',
    text: event.paused
      ? `paused ${words(event.scope)} (${event.mode ?? 'drain'})${event.reason ? ` · “${event.reason}”` : ''}`
      : `resumed ${words(event.scope)}`,
    taskId: null,
  };
}

/** Task lines and pause lines together, newest first, at most `limit`. */
export function feed(
  tasks: ActivityEvent[],
  pauses: PauseEvent[],
  limit: number,
  nameOf?: (id: string) => string | undefined,
): FeedLine[] {
  const lines = [...tasks.map((event) => taskLine(event, nameOf)), ...pauses.map(pauseLine)];
  const seen = new Set<string>();
  return lines
    .filter((line) => {
      if (seen.has(line.key)) return false;
      seen.add(line.key);
      return true;
    })
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, limit);
}
