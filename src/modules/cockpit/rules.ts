/**
 * The cockpit's pure rules: the month's spend projection, first-pass yield, and the signals worth
 * the CEO's attention.
 */

const DAY_MS = 86_400_000;

/**
 * The month's projected spend: what was spent so far this month plus, for each day left in it
 * (fractional), the average daily spend of the last 7 days.
 */
export function projectMonth(input: {
  monthToDate: number;
  last7Days: number;
  now: Date;
  monthEnd: Date;
}): number {
  const daysLeft = Math.max(0, (input.monthEnd.getTime() - input.now.getTime()) / DAY_MS);
  return input.monthToDate + (input.last7Days / 7) * daysLeft;
}

/**
 * First-pass yield: the share of the tasks completed in the window that were never sent back to
 * `needs_revision` (by QA, a PR reviewer or a PM review) on their way; null when none completed.
 */
export function firstPassYield(completed: readonly { revisions: number }[]): number | null {
  if (completed.length === 0) return null;
  const clean = completed.filter((task) => task.revisions === 0).length;
  return Math.round((clean / completed.length) * 10_000) / 10_000;
}

export interface Signal {
  kind: 'over_budget' | 'projected_over_budget' | 'stalled_tasks' | 'awaiting_ceo' | 'blocked_rising';
  summary: string;
  detail: string;
}

export interface SignalFacts {
  monthToDate: number;
  projected: number;
  cap: number | null;
  stalled: number;
  awaitingCeo: number;
  /** Entries into `blocked` in the last 7 days and the 7 before. */
  blockedLastWeek: number;
  blockedWeekBefore: number;
}

const money = (usd: number) => `$${usd.toFixed(2)}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Derived facts worth the CEO's attention, most urgent first. */
export function signalsOf(facts: SignalFacts): Signal[] {
  const signals: Signal[] = [];
  if (facts.cap !== null && facts.monthToDate >= facts.cap) {
    signals.push({
      kind: 'over_budget',
      summary: `Over the monthly budget: ${money(facts.monthToDate)} of ${money(facts.cap)}`,
      detail: 'The dispatcher spawns nothing new until the month turns or the cap is raised.',
    });
  } else if (facts.cap !== null && facts.projected > facts.cap) {
    signals.push({
      kind: 'projected_over_budget',
      summary: `Projected to exceed the monthly budget: ${money(facts.projected)} of ${money(facts.cap)}`,
      detail: `Spent so far this month: ${money(facts.monthToDate)}; projection from the last 7 days' average.`,
    });
  }
  if (facts.stalled > 0) {
    signals.push({
      kind: 'stalled_tasks',
      summary: `${plural(facts.stalled, 'task', 'tasks')} stalled`,
      detail: 'The respawn breaker gave up on them; see GET /api/dashboard/stalled-tasks.',
    });
  }
  if (facts.awaitingCeo > 0) {
    signals.push({
      kind: 'awaiting_ceo',
      summary: `${plural(facts.awaitingCeo, 'task awaits', 'tasks await')} your approval`,
      detail: 'Tasks in awaiting_ceo_approval wait for nobody else.',
    });
  }
  if (facts.blockedLastWeek > facts.blockedWeekBefore) {
    signals.push({
      kind: 'blocked_rising',
      summary: `Blocks rising: ${facts.blockedLastWeek} in the last 7 days, ${facts.blockedWeekBefore} the week before`,
      detail: 'See the blockers on GET /api/dashboard/overview.',
    });
  }
  return signals;
}
