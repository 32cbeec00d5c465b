/**
 * The inbox activity feed's lines, as pure functions: a task audit row ("be-dev-1 moved … from
 * in progress to qa", "CI-watch opened …") and a maintenance-pause change, newest first.
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
  return {
    ...base,
    kind: 'move',
    who: actor,
    text: `${words(event.action)} “${event.task_title}”${move}`,
  };
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
