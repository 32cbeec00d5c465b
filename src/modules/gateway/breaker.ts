/**
 * The circuit breaker, server-side so every agent CLI gets it (DESIGN §4), keyed by (agent, verb,
 * task). Counted: rejections of the flavors an agent can cause by retrying blindly — tracing_gap,
 * incomplete_input, invalid_state, not_authorized (not_found and circuit_open never count;
 * successes never count). Two limits:
 *
 * - windowed: `limit` counted rejections within a sliding 60 s window (3; 5 for open_pr, whose
 *   push can fail transiently). The rejection that reaches the limit is itself answered
 *   `circuit_open`, with the original under `inner`, and every later call of that verb on that
 *   task is answered so without running until the oldest rejection leaves the window.
 * - absolute: 3 × `limit` counted rejections within one agent *run*, never pruned by time, so a
 *   slow drip of retries is stopped too. A run starts at the agent's last successful
 *   work-taking verb (give_me_work, triage, triage_all, or a claim: i_will_work_on, i_will_plan,
 *   claim_review, claim_doc_task, claim_gate_review, claim_pr_review); a new run starts afresh.
 *
 * Graceful exits and pure reads are never limited (give_me_work, triage, triage_all, i_am_idle,
 * unclaim, resume, evidence, read_a2a): the breaker must never block the way out.
 *
 * Which verbs are unlimited, start a run or have another limit is each verb's and do-tool's own
 * definition (its breaker class, verbs/define.ts); the lists below are read from them.
 *
 * State lives in the cache (Redis when configured), so replicas share it; time comes from the
 * platform clock. Read-modify-write is not atomic: two concurrent failures of the same verb on the
 * same task by the same agent may count as one — harmless for a breaker.
 *
 * Best-effort without its store: while the cache (Redis) is unreachable the breaker fails OPEN —
 * every check passes, nothing is counted — so agents keep working on the database alone; the
 * outage is logged once (warn) and the recovery once (info). Counting resumes when Redis is back.
 */
import type { Cache } from '../../platform/cache/types.js';
import type { Clock } from '../../platform/clock.js';
import { OutageLog, type OutageLogger } from '../../platform/outage-log.js';
import { DO_TOOL_DEFINITIONS } from './do-tools.js';
import type { Flavor, RejectionBody } from './envelope.js';
import { DO_TOOLS } from './verb-inputs.js';
import { type BreakerClass, VERB_DEFINITIONS } from './verbs/index.js';

export const BREAKER_WINDOW_MS = 60_000;
export const BREAKER_DEFAULT_LIMIT = 3;
/** The absolute cap per run is this many times the windowed limit. */
export const BREAKER_RUN_FACTOR = 3;
/** How long run bookkeeping is kept without activity. */
const RUN_TTL_MS = 24 * 3_600_000;

/** Every verb's and do-tool's breaker class, from their definitions (default: counted). */
const CLASSES: ReadonlyMap<string, BreakerClass> = new Map([
  ...VERB_DEFINITIONS.map((verb) => [verb.name, verb.breaker ?? 'counted'] as const),
  ...DO_TOOLS.map((tool) => [tool, DO_TOOL_DEFINITIONS[tool].breaker ?? 'counted'] as const),
]);

const classed = (...classes: BreakerClass[]): ReadonlySet<string> =>
  new Set([...CLASSES].filter(([, c]) => classes.includes(c)).map(([name]) => name));

export const UNLIMITED_VERBS = classed('exit', 'find_work');
export const RUN_STARTING_VERBS = classed('find_work', 'claim');
export const BREAKER_LIMITS: Readonly<Record<string, number>> = Object.fromEntries(
  VERB_DEFINITIONS.flatMap((verb) =>
    verb.breakerLimit === undefined ? [] : [[verb.name, verb.breakerLimit]],
  ),
);

const COUNTED: ReadonlySet<Flavor> = new Set([
  'tracing_gap',
  'incomplete_input',
  'invalid_state',
  'not_authorized',
]);

export const breakerLimit = (verb: string): number => BREAKER_LIMITS[verb] ?? BREAKER_DEFAULT_LIMIT;
export const isLimited = (verb: string): boolean => !UNLIMITED_VERBS.has(verb);
export const counts = (flavor: Flavor): boolean => COUNTED.has(flavor);

export interface BreakerKey {
  readonly agentId: string;
  readonly verb: string;
  /** The task the call was about; null for taskless calls. */
  readonly taskId: string | null;
}

/** Why the breaker is open: the rejection that tripped it (or the last one), and the counts. */
export interface OpenCircuit {
  readonly inner: RejectionBody;
  readonly failures: number;
  readonly limit: number;
  readonly scope: 'window' | 'run';
}

interface WindowState {
  /** Times (ms) of the counted rejections still in the window. */
  at: number[];
  last: RejectionBody;
}

export class CircuitBreaker {
  private readonly outage: OutageLog;
  private readonly prefix = 'gaffer:gateway:breaker';

  /** `log` is where an outage of the breaker's store is logged (the app logger). */
  constructor(
    private readonly cache: Cache,
    private readonly clock: Clock,
    log?: OutageLogger,
  ) {
    this.outage = new OutageLog('gateway circuit breaker (failing open: nothing is counted)', log);
  }

  private windowKey(key: BreakerKey): string {
    return `${this.prefix}:w:${key.agentId}:${key.verb}:${key.taskId ?? '-'}`;
  }

  private async runKey(key: BreakerKey): Promise<string> {
    const run = (await this.cache.get(`${this.prefix}:run:${key.agentId}`)) ?? '0';
    return `${this.prefix}:r:${key.agentId}:${run}:${key.verb}:${key.taskId ?? '-'}`;
  }

  /** The open circuit for this key, if it is open now (the verb must not run). */
  async check(key: BreakerKey): Promise<OpenCircuit | null> {
    if (!isLimited(key.verb)) return null;
    return this.outage.failOpen(() => this.openCircuit(key), null);
  }

  private async openCircuit(key: BreakerKey): Promise<OpenCircuit | null> {
    const limit = breakerLimit(key.verb);
    const state = await this.window(key);
    if (state && state.at.length >= limit) {
      return { inner: state.last, failures: state.at.length, limit, scope: 'window' };
    }
    const total = Number((await this.cache.get(await this.runKey(key))) ?? 0);
    const cap = limit * BREAKER_RUN_FACTOR;
    if (total >= cap) {
      const last = state?.last ?? (await this.lastOfRun(key));
      if (last) return { inner: last, failures: total, limit: cap, scope: 'run' };
    }
    return null;
  }

  /**
   * Counts a rejection (when its flavor counts); returns the open circuit when this rejection
   * reached a limit, so the caller answers `circuit_open` instead.
   */
  async recordFailure(key: BreakerKey, rejection: RejectionBody): Promise<OpenCircuit | null> {
    if (!isLimited(key.verb) || !counts(rejection.error)) return null;
    return this.outage.failOpen(() => this.count(key, rejection), null);
  }

  private async count(key: BreakerKey, rejection: RejectionBody): Promise<OpenCircuit | null> {
    const limit = breakerLimit(key.verb);
    const now = this.clock.now().getTime();
    const previous = await this.window(key);
    const at = [...(previous?.at ?? []), now];
    await this.cache.set(this.windowKey(key), JSON.stringify({ at, last: rejection } satisfies WindowState), {
      ttlMs: BREAKER_WINDOW_MS,
    });
    const runKey = await this.runKey(key);
    const total = await this.cache.incr(runKey, { ttlMs: RUN_TTL_MS });
    await this.cache.set(`${runKey}:last`, JSON.stringify(rejection), { ttlMs: RUN_TTL_MS });
    if (at.length >= limit) return { inner: rejection, failures: at.length, limit, scope: 'window' };
    const cap = limit * BREAKER_RUN_FACTOR;
    if (total >= cap) return { inner: rejection, failures: total, limit: cap, scope: 'run' };
    return null;
  }

  /** A successful work-taking verb starts a new run: the absolute counts start from zero. */
  async startRun(agentId: string): Promise<void> {
    const run = String(this.clock.now().getTime());
    await this.outage.failOpen(
      () => this.cache.set(`${this.prefix}:run:${agentId}`, run, { ttlMs: RUN_TTL_MS }),
      undefined,
    );
  }

  /** The counted rejections still in the window (times older than the window dropped). */
  private async window(key: BreakerKey): Promise<WindowState | null> {
    const raw = await this.cache.get(this.windowKey(key));
    if (!raw) return null;
    const state = JSON.parse(raw) as WindowState;
    const since = this.clock.now().getTime() - BREAKER_WINDOW_MS;
    return { at: state.at.filter((t) => t > since), last: state.last };
  }

  private async lastOfRun(key: BreakerKey): Promise<RejectionBody | null> {
    const raw = await this.cache.get(`${await this.runKey(key)}:last`);
    return raw ? (JSON.parse(raw) as RejectionBody) : null;
  }
}
