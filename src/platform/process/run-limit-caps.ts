/**
 * What a run may consume (processes, memory, CPU share, wall time), the defaults, the sentence a
 * person reads when a run went past one, and the rlimit fallback's argv. Pure: no file is read here.
 */
import { availableParallelism } from 'node:os';

export interface RunLimits {
  /**
   * GAFFER_AGENT_MAX_PROCESSES: tasks alive at once in the run. The kernel's pids controller counts
   * threads too (a Node.js program holds about ten), so this is a cap on tasks, not on programs.
   */
  maxProcesses: number;
  /** GAFFER_AGENT_MEMORY_MB: resident memory of the whole run (no swap beyond it). */
  memoryMb: number;
  /** GAFFER_AGENT_CPU_CORES: CPU time per wall-clock second, in cores (1.5 = one and a half). */
  cpuCores: number;
  /** GAFFER_AGENT_MAX_RUN_SECONDS: wall time from the start of the watch. */
  wallSeconds: number;
}

export type RunLimitName = 'processes' | 'memory' | 'wall_time';

/** What bounds a run here: a cgroup of either version, or (best effort) rlimits. */
export type RunLimitsMechanism = 'cgroup2' | 'cgroup1' | 'rlimits';

export interface RunLimitBreach {
  limit: RunLimitName;
  /** What a person reads, naming the cap and its setting. */
  detail: string;
}

/**
 * All cores but one, at least one: a run may parallelise its build or test suite, and the server
 * (and the operator's shell) always keeps a core, however many runs compete.
 */
export function defaultCpuCores(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/**
 * Caps a laptop survives: a fork bomb stops at 512 tasks, a leaking test suite at 4 GiB, and an
 * agent that never ends after an hour.
 */
export function defaultRunLimits(): RunLimits {
  return { maxProcesses: 512, memoryMb: 4096, cpuCores: defaultCpuCores(), wallSeconds: 3600 };
}

export class RunLimitsError extends Error {
  override readonly name = 'RunLimitsError';
}

/** The limits, refused when one is not a positive number (an integer for processes and MB). */
export function checkedLimits(limits: RunLimits): RunLimits {
  const positive = (name: string, value: number, integer: boolean) => {
    if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
      throw new RunLimitsError(`${name} must be a positive ${integer ? 'integer' : 'number'} (got ${value})`);
    }
  };
  positive('maxProcesses', limits.maxProcesses, true);
  positive('memoryMb', limits.memoryMb, true);
  positive('cpuCores', limits.cpuCores, false);
  positive('wallSeconds', limits.wallSeconds, false);
  return { ...limits };
}

export function breachDetail(limit: RunLimitName, limits: RunLimits): string {
  switch (limit) {
    case 'processes':
      return `stopped: the run reached its cap of ${limits.maxProcesses} processes (GAFFER_AGENT_MAX_PROCESSES)`;
    case 'memory':
      return `stopped: the run used its ${limits.memoryMb} MB of memory (GAFFER_AGENT_MEMORY_MB)`;
    case 'wall_time':
      return `stopped: the run reached its wall-time limit of ${limits.wallSeconds} s (GAFFER_AGENT_MAX_RUN_SECONDS)`;
  }
}

export const bytesOf = (limits: RunLimits) => limits.memoryMb * 1024 * 1024;

/** The CFS period both cgroup versions are given, in microseconds (the kernel's default). */
export const CPU_PERIOD_US = 100_000;

/** CPU time per period for `cpuCores` (never below the kernel's 1 ms minimum). */
export const cpuQuotaUs = (limits: RunLimits) => Math.max(1000, Math.round(limits.cpuCores * CPU_PERIOD_US));

/**
 * The fallback where no cgroup can be made: `prlimit` sets rlimits, then runs `argv`. Best effort:
 * - `--nproc` counts every process of the user, not of the run, and root is exempt;
 * - `--data` bounds each process's heap and private mappings, not the run's sum (chosen over `--as`,
 *   the address space, which runtimes reserving large ranges up front — V8, Go — exceed at start);
 * - `--cpu` is CPU seconds per process: the most the run's share could use over its wall time.
 * The CPU share itself and the run's total memory are not bounded at all.
 */
export function rlimitArgv(limits: RunLimits, argv: readonly string[], prlimit = 'prlimit'): string[] {
  const checked = checkedLimits(limits);
  const cpuSeconds = Math.ceil(checked.cpuCores * checked.wallSeconds);
  return [
    prlimit,
    `--nproc=${checked.maxProcesses}`,
    `--data=${bytesOf(checked)}`,
    `--cpu=${cpuSeconds}`,
    '--',
    ...argv,
  ];
}
