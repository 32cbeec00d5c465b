/**
 * Route advice: when the scorecards show a route (CLI and model) that did a role's work at least as
 * well as the role's own route — its first-pass QA and failure-on-start intervals not worse where
 * they separate — and at least 10 % cheaper per accepted task, the CEO gets one card saying so with
 * the numbers. Nothing switches by itself. The same advice (role, own route, cheaper route) is told
 * once a month at most: whichever replica stores it in `route_advice` first sends it.
 */
import { and, isNotNull, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { type ArmFigures, armFigures } from './experiment-verdict.js';
import { routeAdvice, taskOutcomes } from './schema.js';
import { endedIn, PERIODS, type Period } from './scorecards.js';
import { describeRate, MIN_SAMPLE, separated } from './stats.js';
import { outcomeRunSums, outcomeSums } from './sums.js';

/** The scorecards' period the advice reads. */
export const ADVICE_PERIOD: Period = '30d';
/** A cheaper route is advised only at this fraction of the role's cost per accepted task or less. */
export const CHEAPER_AT_MOST = 0.9;
/** The same advice is not told again for this many days. */
const RETELL_DAYS = 30;

export interface Route {
  cli: string;
  model: string;
}

export interface RouteFigures extends Route {
  figures: ArmFigures;
}

export interface Advice {
  role: string;
  current: RouteFigures;
  cheaper: RouteFigures;
  /** The cheaper route's cost per accepted task over the role's own. */
  costRatio: number;
}

export const routeName = (route: Route) => `${route.cli} / ${route.model}`;
const sameRoute = (a: Route) => (b: Route) => a.cli === b.cli && a.model === b.model;
const qaSample = (figures: ArmFigures) => figures.first_pass_qa?.n ?? 0;

/** Not worse than `current` where an interval separates (first-pass QA, failure on start). */
function asGood(candidate: ArmFigures, current: ArmFigures): boolean {
  if (qaSample(candidate) < MIN_SAMPLE) return false;
  if (separated(current.first_pass_qa, candidate.first_pass_qa) === 'a') return false;
  return separated(current.failure_on_start, candidate.failure_on_start) !== 'b';
}

/**
 * The advice for one role (pure): the cheapest route among `routes` that is as good as the role's
 * own (`current`) and at most CHEAPER_AT_MOST of its cost per accepted task; null when there is
 * none, or when the role's own route has too few tasks with a QA verdict to compare against.
 */
export function adviceFor(role: string, current: Route, routes: readonly RouteFigures[]): Advice | null {
  const own = routes.find(sameRoute(current));
  const ownCost = own?.figures.cost_per_accepted_task ?? null;
  if (!own || qaSample(own.figures) < MIN_SAMPLE || ownCost === null || ownCost <= 0) return null;
  const cheaper = routes
    .filter((route) => !sameRoute(current)(route) && asGood(route.figures, own.figures))
    .map((route) => ({ route, cost: route.figures.cost_per_accepted_task }))
    .filter((option): option is { route: RouteFigures; cost: number } => option.cost !== null)
    .filter((option) => option.cost <= ownCost * CHEAPER_AT_MOST)
    .sort((a, b) => a.cost - b.cost)[0];
  return cheaper ? { role, current: own, cheaper: cheaper.route, costRatio: cheaper.cost / ownCost } : null;
}

/** Each role's routes over the period's ended tasks whose CLI and model are known. */
export async function routesByRole(db: Db, now: Date): Promise<Map<string, RouteFigures[]>> {
  const o = taskOutcomes;
  const rows = await db
    .select({
      role: sql<string>`${o.ownerRole}`,
      cli: sql<string>`${o.cli}`,
      model: sql<string>`${o.model}`,
      ...outcomeSums(),
      ...outcomeRunSums(),
    })
    .from(o)
    .where(and(endedIn(ADVICE_PERIOD, now), isNotNull(o.ownerRole), isNotNull(o.cli), isNotNull(o.model)))
    .groupBy(o.ownerRole, o.cli, o.model);
  const byRole = new Map<string, RouteFigures[]>();
  for (const { role, cli, model, ...sums } of rows) {
    byRole.set(role, [...(byRole.get(role) ?? []), { cli, model, figures: armFigures(sums) }]);
  }
  return byRole;
}

const money = (usd: number) => `$${usd.toFixed(2)}`;

function quality(route: RouteFigures): string {
  const { first_pass_qa, failure_on_start, cost_per_accepted_task } = route.figures;
  return (
    `${routeName(route)}: first-pass QA ${describeRate(first_pass_qa, qaSample(route.figures))}, ` +
    `fails on start ${describeRate(failure_on_start, failure_on_start?.n ?? 0)}, ` +
    `${money(cost_per_accepted_task ?? 0)} per accepted task (${route.figures.tasks} tasks)`
  );
}

/** The card's words. */
export function adviceCard(advice: Advice): { subject: string; body: string } {
  const { role, current, cheaper } = advice;
  return {
    subject: `The ${role} role could run on ${routeName(cheaper)} at ${advice.costRatio.toFixed(1)}× the cost`,
    body: [
      `Over the last ${PERIODS[ADVICE_PERIOD]} days the ${role} role's tasks on ${routeName(cheaper)} did as well as on its own route, ${routeName(current)}, for less: no measure's interval shows it worse.`,
      `Own route — ${quality(current)}.`,
      `Cheaper route — ${quality(cheaper)}.`,
      `Test it on a share of the role's work with an experiment on the Workforce page, or route the role there on Settings → Models & agents; nothing switches by itself. This advice is not told again for ${RETELL_DAYS} days.`,
    ].join('\n'),
  };
}

export interface RouteAdvisorDeps {
  db: Db;
  clock: Clock;
  /** The route each role's runs take now (the server's CLI and the role's routed model); null: none routed. */
  routeOfRole(role: string): Promise<Route | null>;
  /** Roles an experiment runs on now: their own card comes when it ends. */
  experimentRoles(): Promise<Set<string>>;
  tell(card: { subject: string; body: string }): Promise<void>;
}

/** Looks at the scorecards and tells the CEO each advice not told this month; answers what it told. */
export async function adviseRoutes(deps: RouteAdvisorDeps): Promise<Advice[]> {
  const now = deps.clock.now();
  const byRole = await routesByRole(deps.db, now);
  const busy = await deps.experimentRoles();
  const told: Advice[] = [];
  for (const [role, routes] of byRole) {
    if (busy.has(role) || routes.length < 2) continue;
    const current = await deps.routeOfRole(role);
    const advice = current ? adviceFor(role, current, routes) : null;
    if (!advice) continue;
    const [fresh] = await deps.db
      .insert(routeAdvice)
      .values({ role, current: routeName(advice.current), candidate: routeName(advice.cheaper), toldAt: now })
      .onConflictDoUpdate({
        target: [routeAdvice.role, routeAdvice.current, routeAdvice.candidate],
        set: { toldAt: now },
        setWhere: sql`${routeAdvice.toldAt} < ${new Date(now.getTime() - RETELL_DAYS * 86_400_000).toISOString()}::timestamptz`,
      })
      .returning({ role: routeAdvice.role });
    if (!fresh) continue;
    await deps.tell(adviceCard(advice));
    told.push(advice);
  }
  return told;
}
