/**
 * The dashboard's pure rules: a team's health from its open, blocked and stalled counts; where a
 * task came from (its root ancestor: human, agent or engine); whether an agent run made progress;
 * medians and per-day buckets.
 */

export type TeamHealth = 'ok' | 'slow' | 'critical';

/**
 * `ok`: nothing blocked or stalled. `critical`: three or more blocked or stalled, or they are more
 * than half of the team's open work. `slow`: anything in between.
 */
export function teamHealth(counts: { open: number; blocked: number; stalled: number }): TeamHealth {
  const stuck = counts.blocked + counts.stalled;
  if (stuck === 0) return 'ok';
  if (stuck >= 3 || stuck * 2 > counts.open) return 'critical';
  return 'slow';
}

export type Provenance = 'human' | 'agent' | 'engine';

/** Sources of tasks a human asked for whoever typed them in (the intake interviewer records a human's request). */
const HUMAN_SOURCES: readonly string[] = ['prompter'];

/**
 * Where a task came from, by its root ancestor: `engine` when the root was opened by an engine
 * (CI-watch, dependency updates, release manager: any source other than `manual` and `prompter`)
 * or by the system; `human` when the CEO wrote it (or the intake interviewer took it from a
 * human); `agent` when an agent wrote it.
 */
export function provenanceOf(root: { source: string; creatorRole: string | null }): Provenance {
  if (HUMAN_SOURCES.includes(root.source)) return 'human';
  if (root.source !== 'manual' || root.creatorRole === 'system' || root.creatorRole === null) return 'engine';
  return root.creatorRole === 'ceo' ? 'human' : 'agent';
}

/** Whether any progress signal falls inside the run's window (both ends included). */
export function runMadeProgress(run: { startedAt: Date; endedAt: Date }, signals: readonly Date[]): boolean {
  const start = run.startedAt.getTime();
  const end = run.endedAt.getTime();
  return signals.some((at) => at.getTime() >= start && at.getTime() <= end);
}

/** The median of the values (null for none). */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `YYYY-MM-DD` (UTC) of each of the `days` days ending with the day of `now`, oldest first. */
export function dayKeys(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Rounds money to cents' hundredths (6 decimals, as the ledger stores it). */
export const usd = (value: number): number => Math.round(value * 1e6) / 1e6;

/** Hours with two decimals. */
export const hours = (ms: number): number => Math.round((ms / 3_600_000) * 100) / 100;
