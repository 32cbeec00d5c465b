/**
 * One running agent process: streams its output to the run's `RunIo` line by line, stops it
 * (graceful = SIGTERM to the whole process group, SIGKILL after the grace period; kill = SIGKILL
 * at once), holds it to its limits (a cap on processes or memory reached: its cgroup is killed;
 * its wall time out: a graceful stop), and when the leader ends kills whatever of the group is
 * left, waits for the output to drain, removes the run's files and reports how it ended — failed,
 * naming the limit, when one stopped it.
 */

import {
  type GroupLeader,
  type GroupStop,
  type RunLimitBreach,
  type RunLimitsHandle,
  signalGroup,
  stopGroup,
} from '../../platform/process/index.js';
import type { ExitInfo, RunIo, RunningAgent, RunOutcome, SpawnSpec, StopOptions } from './contract.js';
import { LineChunker } from './output-chunker.js';

/** Longest wait for the output pipes to close after the group is gone (a grandchild that escaped the group). */
const DRAIN_LIMIT_MS = 5_000;

export interface ProcessRunOptions {
  spec: SpawnSpec;
  io: RunIo;
  child: GroupLeader;
  startedAt: Date;
  graceSeconds: number;
  now: () => Date;
  /** Called once the process has ended (files removed here). */
  cleanup: () => Promise<void>;
  chunkChars?: number;
  /** The leader is the sandbox (`bwrap`): a graceful stop signals the program, not it. */
  sandboxed?: boolean;
  /** The run's limits (watched from the start; released before `cleanup`). */
  limits?: RunLimitsHandle | null;
}

const seconds = (value: number) => `${Number(value.toFixed(3))} s`;

export class ProcessRun implements RunningAgent {
  readonly kind = 'process' as const;
  readonly agentId: string;
  readonly taskId: string | null;
  readonly runId: string;
  readonly pid: number;
  readonly startedAt: Date;
  readonly exited: Promise<ExitInfo>;

  private requested: 'graceful' | 'kill' | null = null;
  private escalatedAfter: number | null = null;
  private graceful: GroupStop | null = null;
  private leaderGone = false;
  private lastStderrLine: string | null = null;
  private lastStderrIsError = false;
  private breach: RunLimitBreach | null = null;

  constructor(private readonly options: ProcessRunOptions) {
    const { spec, io, child } = options;
    this.agentId = spec.agent.id;
    this.taskId = spec.taskId;
    this.runId = io.runId;
    this.pid = child.pid as number;
    this.startedAt = options.startedAt;
    // An error after a successful start (a failed kill) must never crash the server.
    child.on('error', () => undefined);
    const out = new LineChunker((text) => io.output('stdout', text), options.chunkChars);
    const err = new LineChunker((text) => {
      this.rememberStderr(text);
      io.output('stderr', text);
    }, options.chunkChars);
    child.stdout.on('data', (data: Buffer) => out.push(data));
    child.stderr.on('data', (data: Buffer) => err.push(data));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    ).then(async ({ code, signal }) => {
      this.leaderGone = true;
      this.graceful?.cancel();
      // Whatever the agent left running in its group goes with it.
      signalGroup(this.pid, 'SIGKILL');
      await drained(closed, child);
      out.end();
      err.end();
      this.breach ??= options.limits?.breach() ?? null;
      await options.cleanup();
      return this.describe(code, signal);
    });
    options.limits?.watch(
      (breach) => {
        this.breach ??= breach;
        // Processes and memory: the limits have killed the run already. Wall time: it may end itself.
        if (breach.limit === 'wall_time') void this.stop({ graceful: true });
      },
      { wallGraceMs: options.graceSeconds * 1000 },
    );
  }

  stop(options: StopOptions): Promise<ExitInfo> {
    if (this.leaderGone) return this.exited;
    if (!options.graceful) {
      this.requested = 'kill';
      this.graceful?.cancel();
      signalGroup(this.pid, 'SIGKILL');
    } else if (this.requested === null) {
      this.requested = 'graceful';
      const grace = options.graceSeconds ?? this.options.graceSeconds;
      this.graceful = stopGroup(
        this.pid,
        grace * 1000,
        () => {
          this.escalatedAfter = grace;
        },
        { spareLeader: this.options.sandboxed ?? false },
      );
    }
    return this.exited;
  }

  /**
   * Keeps the stderr line that says most about a failure: the last one that reads like an error
   * (a CLI's usage text and "try --help" come after its error line), else the last one.
   */
  private rememberStderr(text: string): void {
    const lines = text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const telling = lines.findLast((line) => ERROR_LINE.test(line));
    const pick = telling ?? (this.lastStderrIsError ? undefined : lines.at(-1));
    if (!pick) return;
    this.lastStderrLine = pick.length > 300 ? `${pick.slice(0, 300)}…` : pick;
    this.lastStderrIsError = telling !== undefined;
  }

  private describe(code: number | null, signal: NodeJS.Signals | null): ExitInfo {
    const endedAt = this.options.now();
    if (this.breach) {
      const { limit, detail } = this.breach;
      return { outcome: 'failed', code, signal, detail, endedAt, limitHit: limit };
    }
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    let outcome: RunOutcome;
    let detail: string;
    if (this.requested === 'kill') {
      outcome = 'killed';
      detail = `killed with SIGKILL (${how})`;
    } else if (this.escalatedAfter !== null) {
      outcome = 'killed';
      detail = `did not stop within ${seconds(this.escalatedAfter)} of SIGTERM; killed with SIGKILL (${how})`;
    } else if (this.requested === 'graceful') {
      outcome = 'stopped';
      detail = `stopped with SIGTERM (${how})`;
    } else if (code === 0) {
      outcome = 'exited';
      detail = 'exited with code 0';
    } else {
      outcome = 'failed';
      detail = signal ? `ended by signal ${signal}` : `exited with code ${code}`;
      if (this.lastStderrLine) detail += `: ${this.lastStderrLine}`;
    }
    return { outcome, code, signal, detail, endedAt };
  }
}

/** A stderr line that reports an error (rather than usage text, a tip or a stack frame). */
const ERROR_LINE = /\b(error|fatal|invalid|unexpected|not found|refused|denied|unauthori[sz]ed)\b/i;

/** Resolves when the child's pipes have closed, or after DRAIN_LIMIT_MS (then closes them). */
async function drained(closed: Promise<void>, child: GroupLeader): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
      resolve();
    }, DRAIN_LIMIT_MS);
  });
  await Promise.race([closed, limit]);
  clearTimeout(timer);
}
