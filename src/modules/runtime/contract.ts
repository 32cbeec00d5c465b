/**
 * The agent-runtime contract: what every runtime (`process` for any agent CLI, `scripted` for the
 * built-in simulated agents) is given and what it hands back. The supervisor owns the bookkeeping
 * (one run per agent, transcript, lifecycle events); a runtime only starts the agent, forwards its
 * output to the `RunIo` it was given, and says how it ended.
 */
import type { Role } from '../../platform/http/auth/identity.js';
import type { EgressRefusal, RunLimitName } from '../../platform/process/index.js';

export type { RunLimitName };

/** The runtimes there are. */
export const RUNTIME_KINDS = ['process', 'scripted'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/** The agent a run is for, as the roster knows it. */
export interface SpawnAgent {
  /** Roster UUID. */
  readonly id: string;
  readonly slug: string;
  readonly role: Role;
  /** Null for an org-wide agent bound to no team. */
  readonly team: string | null;
}

/** Everything a runtime needs to start one agent run. */
export interface SpawnSpec {
  readonly agent: SpawnAgent;
  /** The task the run is about; null for taskless work (PM triage, board cycles). */
  readonly taskId: string | null;
  /** Working directory of the agent: the task's worktree (or the clone root for branchless work). */
  readonly workspace: string;
  /**
   * The git metadata the worktree works from (its clone's `.git`), readable but not writable in
   * the sandbox: the agent reads history, and commits and pushes only through the gateway's verbs.
   */
  readonly gitDir?: string | null;
  /** The composed prompt. The process runtime writes it to a file of its own run directory. */
  readonly prompt: string;
  /** Model the agent should use; absent means the CLI's own default. */
  readonly model?: string | null;
  /** Which agent CLI (or scripted program) runs it: `claude`, `codex`, `gemini`, a custom name. */
  readonly provider: string;
  /** The model provider an experiment's arm names (by name), instead of the agent's own route. */
  readonly route?: { readonly provider: string; readonly model: string | null } | null;
  /** Base URL of the Gaffer service, for the agent's gateway calls. */
  readonly gatewayUrl: string;
  /**
   * The agent's expiring token. Never on disk or in argv: in the sandbox, the gateway door adds it to
   * the run's gateway calls; unsandboxed, it is in the child's environment.
   */
  readonly token: string;
  /** The task's project allowlist entries (its Budget & Ops card): where else the run may reach. */
  readonly networkAllow?: readonly string[];
}

/** The stream an output chunk came from; `system` is the supervisor's own notes in the transcript. */
export type OutputStream = 'stdout' | 'stderr';

/** Where a runtime sends what its agent prints, given by the supervisor with each spawn. */
export interface RunIo {
  /** The run's id (the transcript key), chosen by the supervisor before the runtime starts. */
  readonly runId: string;
  /**
   * A chunk of output: one or more whole lines (a trailing partial line only at the end of the
   * stream or when a line outgrows the chunk size). Streamed live and kept in the transcript.
   */
  output(stream: OutputStream, text: string): void;
  /** The model the runtime passes the CLI when the spawn named none (the agent's routed one). */
  routedModel?(model: string): void;
  /** A destination the run's network fence refused (host, port, why). */
  blocked?(refusal: EgressRefusal): void;
}

/** How a run ended. */
export type RunOutcome =
  /** Ended by itself with exit code 0. */
  | 'exited'
  /** Ended by itself with a non-zero code or a signal nobody sent, or could not start. */
  | 'failed'
  /** Ended after a graceful stop (SIGTERM) within the grace period. */
  | 'stopped'
  /** Killed: an immediate kill, or a graceful stop that outlived its grace. */
  | 'killed';

export interface ExitInfo {
  readonly outcome: RunOutcome;
  /** Exit code when the process exited by itself; null when a signal ended it (or nothing ran). */
  readonly code: number | null;
  /** The signal that ended it, e.g. `SIGKILL`; null when it exited. */
  readonly signal: string | null;
  /** One line for people: why it ended (`exited with code 2: <last stderr line>`). */
  readonly detail: string;
  readonly endedAt: Date;
  /** The run limit that stopped it, when one did (the outcome is then `failed`). */
  readonly limitHit?: RunLimitName | null;
}

export interface StopOptions {
  /** true: SIGTERM, then SIGKILL after the grace period. false: SIGKILL at once. */
  readonly graceful: boolean;
  /** Overrides the runtime's grace period for this stop (seconds, fractions allowed). */
  readonly graceSeconds?: number;
}

/** One started run, as its runtime reports it. */
export interface RunningAgent {
  readonly agentId: string;
  readonly taskId: string | null;
  readonly runId: string;
  readonly kind: RuntimeKind;
  /** OS process id of the agent (its process-group leader); absent for in-process runtimes. */
  readonly pid?: number;
  readonly startedAt: Date;
  /** Ends the run (idempotent; a kill after a graceful stop escalates at once). */
  stop(options: StopOptions): Promise<ExitInfo>;
  /** Resolves once the run has ended and everything it held (processes, files) is released. */
  readonly exited: Promise<ExitInfo>;
}

/** A way of running agents. */
export interface AgentRuntime {
  readonly kind: RuntimeKind;
  /**
   * Starts the agent and resolves once it runs (rejects, leaving nothing behind, when it cannot
   * start: a missing executable, a bad template). Output goes to `io` from the first byte.
   */
  spawn(spec: SpawnSpec, io: RunIo): Promise<RunningAgent>;
}
