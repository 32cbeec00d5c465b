/**
 * The runtime supervisor: the one place agent runs start and stop on this replica. At most one run
 * per agent (spawning an agent that runs returns its run), every run recorded (run row, transcript)
 * and its lifecycle published on the bus — AGENT_SPAWNED, output, then AGENT_STOPPED (ended by
 * itself with 0, or stopped/killed on request) or AGENT_ERROR (failed, or could not start) — plus
 * AGENT_WAITING / AGENT_RESUMED for runtimes and the dispatcher to report.
 */
import { randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';
import type { EventBus } from '../../platform/bus/index.js';
import type { Clock } from '../../platform/clock.js';
import { isForeignKeyViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { BlockedConnections } from './blocked-connections.js';
import { scanCliAuthFailure } from './cli-auth-failures.js';
import { type CliRateLimit, scanCliRateLimit } from './cli-rate-limits.js';
import type {
  AgentRuntime,
  ExitInfo,
  OutputStream,
  RunningAgent,
  RuntimeKind,
  SpawnSpec,
  StopOptions,
} from './contract.js';
import { RunJournal } from './run-journal.js';
import type { TranscriptStore } from './transcript-store.js';
import { type LineUsage, UsageLineReader } from './usage-lines.js';

/** Default cap of one run's kept transcript: 1 MiB. */
export const DEFAULT_MAX_TRANSCRIPT_BYTES = 1024 * 1024;

export interface SupervisorLog {
  warn(details: object, message: string): void;
}

export interface RuntimeSupervisorDeps {
  bus: EventBus;
  store: TranscriptStore;
  clock: Clock;
  maxTranscriptBytes?: number;
  log?: SupervisorLog;
  /** How often the supervisor vouches for its running runs (default RUN_VOUCH_INTERVAL_MS). */
  vouchIntervalMs?: number;
  /** Told the token usage each of a run's stdout lines reports (agent CLI usage lines), for the ledger. */
  onUsage?: (usage: RunUsage) => void;
}

/** Token usage an agent's output reported, with the run it belongs to. */
export interface RunUsage extends LineUsage {
  agentId: string;
  taskId: string | null;
  runId: string;
  provider: string;
}

/**
 * How often a supervisor records that its runs are still going (`seen_at`); a run nobody vouched
 * for in LOST_RUN_AFTER_MS is closed as lost by the runtime's sweep.
 */
export const RUN_VOUCH_INTERVAL_MS = 30_000;
export const LOST_RUN_AFTER_MS = 4 * RUN_VOUCH_INTERVAL_MS;

/** What the orchestrator lists about a running agent. */
export interface RunningAgentInfo {
  agentId: string;
  agentSlug: string;
  role: string;
  team: string | null;
  taskId: string | null;
  runId: string;
  runtime: RuntimeKind;
  provider: string;
  model: string | null;
  pid: number | null;
  startedAt: Date;
  /** Set while the agent waits (for a reply, a human, a parked provider). */
  waiting: { since: Date; detail: string | null } | null;
}

/** A rate limit an agent CLI printed (cli-rate-limits.ts), for the provider parking. */
export interface SeenRateLimit extends CliRateLimit {
  agent: { id: string; slug: string; role: string };
  taskId: string | null;
  runId: string;
  /** The agent CLI the run uses (`claude`, `codex`, a custom name). */
  cli: string;
}

/** One run reports a printed rate limit at most this often (a CLI retrying prints many). */
const RATE_LIMIT_REPORT_EVERY_MS = 10_000;

/** A run that has ended, for listeners (the dispatcher returning claims, respawn breakers). */
export interface EndedRun {
  agentId: string;
  agentSlug: string;
  taskId: string | null;
  runId: string;
  runtime: RuntimeKind;
  /** The agent CLI it ran (`claude`, `codex`, …). */
  provider: string;
  startedAt: Date;
  exit: ExitInfo;
  /** The CLI's words when the model provider refused its credentials (the run was stopped for it). */
  refused: string | null;
}

export interface SpawnResult {
  agent: RunningAgent;
  /** True when the agent was already running: this is its existing run, nothing new started. */
  alreadyRunning: boolean;
}

interface Entry {
  spec: SpawnSpec;
  running: RunningAgent;
  journal: RunJournal;
  blocked: BlockedConnections;
  waiting: RunningAgentInfo['waiting'];
  ending: boolean;
  settled: Promise<ExitInfo>;
  /** Set when the run's output said the provider refused the credentials (cli-auth-failures.ts). */
  refused: () => string | null;
}

/** A run stopped for refused credentials gets this long to exit after SIGTERM. */
const REFUSED_STOP_GRACE_SECONDS = 2;

/** Roles that are people or the server itself, never an agent process. */
const NOT_SPAWNABLE = new Set(['ceo', 'system']);

export class RuntimeSupervisor {
  private readonly runtimes = new Map<RuntimeKind, AgentRuntime>();
  private readonly live = new Map<string, Entry>();
  private readonly starting = new Map<string, Promise<SpawnResult>>();
  private readonly endListeners = new Set<(ended: EndedRun) => void>();
  private readonly rateLimitListeners = new Set<(seen: SeenRateLimit) => void>();
  private closing = false;
  private readonly vouching: NodeJS.Timeout;
  log: SupervisorLog | undefined;
  /** Refusals of the runs' network fences, for /metrics (registered by the module's routes). */
  readonly blockedCounter = new Counter({
    name: 'gaffer_agent_network_refusals_total',
    help: 'Connections the agents’ network fence refused, by kind: not_allowed, forbidden_address, unresolvable.',
    labelNames: ['kind'] as const,
    registers: [],
  });

  constructor(private readonly deps: RuntimeSupervisorDeps) {
    this.log = deps.log;
    this.vouching = setInterval(() => void this.vouch(), deps.vouchIntervalMs ?? RUN_VOUCH_INTERVAL_MS);
    this.vouching.unref();
  }

  /** Makes a runtime available (`process` at start; `scripted` when its module is built). */
  register(runtime: AgentRuntime): void {
    this.runtimes.set(runtime.kind, runtime);
  }

  hasRuntime(kind: RuntimeKind): boolean {
    return this.runtimes.has(kind);
  }

  /**
   * Starts a run of `spec.agent` on the `kind` runtime, or returns the agent's running one. Throws
   * AppError: 422 unknown_runtime / not_spawnable / unknown_agent, 409 workspace_missing, 503
   * agent_cli_unavailable or runtime_closing (a run that could not start is recorded and
   * AGENT_ERROR published).
   */
  async spawn(kind: RuntimeKind, spec: SpawnSpec): Promise<SpawnResult> {
    const agentId = spec.agent.id;
    for (;;) {
      const pending = this.starting.get(agentId);
      if (pending) return { agent: (await pending).agent, alreadyRunning: true };
      const entry = this.live.get(agentId);
      if (!entry) break;
      if (!entry.ending) return { agent: entry.running, alreadyRunning: true };
      await entry.settled;
    }
    const started = this.start(kind, spec);
    this.starting.set(agentId, started);
    try {
      return await started;
    } finally {
      this.starting.delete(agentId);
    }
  }

  /** The agent's running run, if any. */
  get(agentId: string): RunningAgent | null {
    return this.live.get(agentId)?.running ?? null;
  }

  list(): RunningAgentInfo[] {
    return [...this.live.values()].map(({ spec, running, waiting }) => ({
      agentId: spec.agent.id,
      agentSlug: spec.agent.slug,
      role: spec.agent.role,
      team: spec.agent.team,
      taskId: spec.taskId,
      runId: running.runId,
      runtime: running.kind,
      provider: spec.provider,
      model: spec.model ?? null,
      pid: running.pid ?? null,
      startedAt: running.startedAt,
      waiting,
    }));
  }

  /** Resolves with how the agent's current run ended, once it is recorded; null when it is not running. */
  whenEnded(agentId: string): Promise<ExitInfo> | null {
    return this.live.get(agentId)?.settled ?? null;
  }

  /** Stops the agent's run and resolves once it is recorded; null when it was not running. */
  async stop(agentId: string, options: StopOptions): Promise<ExitInfo | null> {
    const entry = this.live.get(agentId);
    if (!entry) return null;
    await entry.running.stop(options).catch(() => undefined);
    return entry.settled;
  }

  /** Stops every run of this replica (a kill pause, a shutdown). */
  async stopAll(options: StopOptions): Promise<ExitInfo[]> {
    const exits = await Promise.all([...this.live.keys()].map((agentId) => this.stop(agentId, options)));
    return exits.filter((exit): exit is ExitInfo => exit !== null);
  }

  /** Shutdown: refuses new spawns, stops the running ones gracefully. */
  async close(options: StopOptions = { graceful: true }): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.starting.values()]);
    await this.stopAll(options);
    clearInterval(this.vouching);
  }

  /** Records that this supervisor's runs are still going (their `seen_at`). */
  private async vouch(): Promise<void> {
    const runIds = [...this.live.values()].filter((entry) => !entry.ending).map((e) => e.running.runId);
    await this.deps.store
      .vouch(runIds, this.deps.clock.now())
      .catch((error) => this.warn(error, 'vouching for the running runs', runIds.join(', ')));
  }

  /** Publishes AGENT_WAITING for a running agent; false when it is not running here. */
  markWaiting(agentId: string, detail: string | null): boolean {
    const entry = this.live.get(agentId);
    if (!entry || entry.ending) return false;
    entry.waiting = { since: this.deps.clock.now(), detail };
    entry.journal.lifecycle('AGENT_WAITING', detail);
    return true;
  }

  /** Publishes AGENT_RESUMED for a waiting (or running) agent; false when it is not running here. */
  markResumed(agentId: string, detail: string | null): boolean {
    const entry = this.live.get(agentId);
    if (!entry || entry.ending) return false;
    entry.waiting = null;
    entry.journal.lifecycle('AGENT_RESUMED', detail);
    return true;
  }

  /** Calls `listener` after each run ends and is recorded; returns the unsubscribe. */
  onRunEnded(listener: (ended: EndedRun) => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** Calls `listener` when a running agent's output reports a provider rate limit; returns the unsubscribe. */
  onRateLimitSeen(listener: (seen: SeenRateLimit) => void): () => void {
    this.rateLimitListeners.add(listener);
    return () => this.rateLimitListeners.delete(listener);
  }

  /** Output watcher of one run: reads its lines for a rate limit and tells the listeners (throttled). */
  private rateLimitWatch(spec: SpawnSpec, runId: string): (text: string) => void {
    let lastAt = Number.NEGATIVE_INFINITY;
    return (text) => {
      if (this.rateLimitListeners.size === 0) return;
      const nowMs = this.deps.clock.now().getTime();
      if (nowMs - lastAt < RATE_LIMIT_REPORT_EVERY_MS) return;
      const found = scanCliRateLimit(text, nowMs);
      if (!found) return;
      lastAt = nowMs;
      const { id, slug, role } = spec.agent;
      const seen = { ...found, agent: { id, slug, role }, taskId: spec.taskId, runId, cli: spec.provider };
      for (const listener of this.rateLimitListeners) {
        try {
          listener(seen);
        } catch (error) {
          this.warn(error, 'a rate-limit listener', runId);
        }
      }
    };
  }

  private async start(kind: RuntimeKind, spec: SpawnSpec): Promise<SpawnResult> {
    if (this.closing) throw new AppError(503, 'runtime_closing', 'the server is shutting down');
    const runtime = this.runtimes.get(kind);
    if (!runtime) {
      throw new AppError(422, 'unknown_runtime', `no "${kind}" runtime is available`, {
        available: [...this.runtimes.keys()],
      });
    }
    if (NOT_SPAWNABLE.has(spec.agent.role)) {
      throw new AppError(422, 'not_spawnable', `a ${spec.agent.role} is not an agent Gaffer runs`);
    }
    if (!isUuid(spec.agent.id) || (spec.taskId !== null && !isUuid(spec.taskId))) {
      throw new AppError(422, 'validation_failed', 'agent and task are named by their UUIDs');
    }
    const runId = randomUUID();
    await this.deps.store
      .createRun({
        id: runId,
        agentId: spec.agent.id,
        taskId: spec.taskId,
        runtime: kind,
        provider: spec.provider,
        model: spec.model ?? null,
        startedAt: this.deps.clock.now(),
      })
      .catch((error) => {
        if (isForeignKeyViolation(error)) {
          throw new AppError(422, 'unknown_agent', 'the agent or the task of this spawn does not exist');
        }
        throw error;
      });
    const journal = new RunJournal(
      {
        bus: this.deps.bus,
        store: this.deps.store,
        clock: this.deps.clock,
        maxTranscriptBytes: this.deps.maxTranscriptBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES,
        onError: (error, what) => this.warn(error, what, runId),
      },
      { runId, agentId: spec.agent.id, taskId: spec.taskId },
    );
    const blocked = new BlockedConnections((text) => journal.note(text));
    let running: RunningAgent | undefined;
    let routedModel: string | null = null;
    let refused: string | null = null;
    const stopRefused = () =>
      void running?.stop({ graceful: true, graceSeconds: REFUSED_STOP_GRACE_SECONDS }).catch(() => undefined);
    const watchRateLimits = this.rateLimitWatch(spec, runId);
    const usage = this.usageTap(spec, runId);
    const output = (stream: OutputStream, text: string) => {
      journal.output(stream, text);
      watchRateLimits(text);
      if (stream === 'stdout') usage?.push(text);
      // No retry of a refused key can succeed: stop at the first refusal instead of waiting them out.
      if (refused !== null) return;
      refused = scanCliAuthFailure(text);
      if (refused === null) return;
      journal.note(`the model provider refused the credentials (${refused}): stopping the run`);
      stopRefused();
    };
    try {
      running = await runtime.spawn(spec, {
        runId,
        output,
        routedModel: (model) => {
          routedModel = model;
          usage?.assume(model);
        },
        blocked: (refusal) => {
          blocked.add(refusal);
          this.blockedCounter.inc({ kind: refusal.kind });
        },
      });
    } catch (error) {
      const detail = `could not start: ${(error as Error).message}`;
      journal.note(detail);
      journal.open('AGENT_ERROR', detail);
      await this.record(journal, blocked, runId, {
        outcome: 'failed',
        code: null,
        signal: null,
        detail,
        endedAt: this.deps.clock.now(),
      });
      throw error;
    }
    if (refused !== null) stopRefused();
    await this.deps.store
      .markStarted(runId, running.pid ?? null, routedModel)
      .catch((error) => this.warn(error, 'recording the pid', runId));
    const pid = running.pid === undefined ? '' : `, pid ${running.pid}`;
    journal.open('AGENT_SPAWNED', `${kind} runtime, provider ${spec.provider}${pid}`);
    const entry: Entry = {
      spec,
      running,
      journal,
      blocked,
      waiting: null,
      ending: false,
      settled: undefined as never,
      refused: () => refused,
    };
    entry.settled = running.exited
      .catch(
        (error): ExitInfo => ({
          outcome: 'failed',
          code: null,
          signal: null,
          detail: `the runtime failed: ${(error as Error).message}`,
          endedAt: this.deps.clock.now(),
        }),
      )
      .then((exit) => this.finish(entry, exit));
    this.live.set(spec.agent.id, entry);
    return { agent: running, alreadyRunning: false };
  }

  private async finish(entry: Entry, reported: ExitInfo): Promise<ExitInfo> {
    entry.ending = true;
    const { journal, spec, running } = entry;
    const refused = entry.refused();
    const exit: ExitInfo = refused
      ? { ...reported, outcome: 'failed', detail: `the model provider refused the credentials: ${refused}` }
      : reported;
    journal.note(exit.detail);
    await this.record(journal, entry.blocked, running.runId, exit);
    journal.lifecycle(exit.outcome === 'failed' ? 'AGENT_ERROR' : 'AGENT_STOPPED', exit.detail);
    await journal.settle();
    if (this.live.get(spec.agent.id) === entry) this.live.delete(spec.agent.id);
    const ended: EndedRun = {
      agentId: spec.agent.id,
      agentSlug: spec.agent.slug,
      taskId: spec.taskId,
      runId: running.runId,
      runtime: running.kind,
      provider: spec.provider,
      startedAt: running.startedAt,
      exit,
      refused,
    };
    for (const listener of this.endListeners) {
      try {
        listener(ended);
      } catch (error) {
        this.warn(error, 'a run-ended listener', running.runId);
      }
    }
    return exit;
  }

  /** Stores the rest of the transcript, then the run's ending. */
  private async record(
    journal: RunJournal,
    blocked: BlockedConnections,
    runId: string,
    exit: ExitInfo,
  ): Promise<void> {
    await journal.settle();
    await this.deps.store
      .finishRun(runId, {
        endedAt: exit.endedAt,
        outcome: exit.outcome,
        exitCode: exit.code,
        signal: exit.signal,
        detail: exit.detail,
        ...journal.stats(),
        blocked: blocked.list(),
        blockedTotal: blocked.total,
        limitHit: exit.limitHit ?? null,
      })
      .catch((error) => this.warn(error, 'recording the end of a run', runId));
  }

  /** Reads the run's stdout for usage lines and hands each to `onUsage`; null when nobody listens. */
  private usageTap(spec: SpawnSpec, runId: string) {
    const onUsage = this.deps.onUsage;
    if (!onUsage) return null;
    const reader = new UsageLineReader(spec.model ?? null);
    const run = { agentId: spec.agent.id, taskId: spec.taskId, runId, provider: spec.provider };
    return {
      /** The routed model, for lines that do not name theirs (Codex's). */
      assume: (model: string) => reader.assume(model),
      push: (text: string) => {
        for (const usage of reader.push(text)) {
          try {
            onUsage({ ...usage, ...run });
          } catch (error) {
            this.warn(error, 'recording usage', runId);
          }
        }
      },
    };
  }

  private warn(error: unknown, what: string, runId: string): void {
    this.log?.warn({ err: error, run_id: runId }, `agent runtime: ${what} failed`);
  }
}
