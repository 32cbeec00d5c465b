/**
 * Per-run caps on processes, memory, CPU share and wall time (DESIGN §10 "run limits"), through
 * the kernel's cgroups where the server may make them, else rlimits and a loud warning:
 * 1. cgroup v2, in the server's own cgroup when it is delegated (systemd `Delegate=yes`), or in the
 *    delegated cgroup it is given — cgroup-v2.ts;
 * 2. cgroup v1 as root (a hierarchy per controller) — cgroup-v1.ts;
 * 3. rlimits through `prlimit`: per process, best effort, and the state says so.
 * The host is probed once per process (a trial run enters a trial cgroup). A run then gets a handle
 * (run-cgroup.ts): the argv that starts it inside its cgroup, a watch that hears a cap reached, the
 * first breach, and a release that kills what is left and removes the cgroup.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { ownCgroups, runCgroupName, tryRmdir } from './cgroup-files.js';
import { createV1Run, locateV1, prepareV1Parents } from './cgroup-v1.js';
import { createV2Run, locateV2, prepareV2Parent } from './cgroup-v2.js';
import { findProgram } from './find-program.js';
import {
  type CgroupBackend,
  CgroupRun,
  enterCgroupArgv,
  RlimitRun,
  type RunLimitsHandle,
} from './run-cgroup.js';
import {
  checkedLimits,
  defaultCpuCores,
  defaultRunLimits,
  type RunLimits,
  type RunLimitsMechanism,
  rlimitArgv,
} from './run-limit-caps.js';

export type { RunLimitsHandle, WatchOptions } from './run-cgroup.js';
export {
  breachDetail,
  defaultCpuCores,
  defaultRunLimits,
  type RunLimitBreach,
  type RunLimitName,
  type RunLimits,
  RunLimitsError,
  type RunLimitsMechanism,
  rlimitArgv,
} from './run-limit-caps.js';

/** A cap the kernel holds the run to as a whole. */
export type RunCap = 'processes' | 'memory' | 'cpu' | 'wall_time';

export interface RunLimitsState {
  mechanism: RunLimitsMechanism;
  /** Every cap holds the run as a whole (a cgroup). False under rlimits: best effort. */
  ready: boolean;
  /** Under rlimits: why no cgroup can be made here, and what would allow one. */
  reason: string | null;
  /** The caps that hold the run as a whole (cpu only where the controller is offered). */
  enforced: RunCap[];
}

export interface RunLimitsOptions {
  /** A delegated cgroup v2 directory for the runs, instead of the server's own cgroup. */
  cgroupParent?: string;
}

interface Probe {
  state: RunLimitsState;
  makeRun(name: string, limits: RunLimits): RunLimitsHandle;
}

const probes = new Map<string, Promise<Probe>>();

/** One probe per process (and delegated parent): what the host allows does not change while it runs. */
function probeOnce(options: RunLimitsOptions): Promise<Probe> {
  const key = options.cgroupParent ?? '';
  let probe = probes.get(key);
  if (!probe) {
    probe = probeHost(options);
    probes.set(key, probe);
  }
  return probe;
}

/** Which mechanism this host gives the runs, and, when only rlimits, why no cgroup can be made. */
export async function probeRunLimits(options: RunLimitsOptions = {}): Promise<RunLimitsState> {
  return (await probeOnce(options)).state;
}

/**
 * Limits for run `runId`: a cgroup of its own with `limits` written (or, where none can be made,
 * the rlimit fallback). Rejects when the limits are not positive numbers or the cgroup cannot be
 * made although the probe could make one.
 */
export async function createRunCgroup(
  runId: string,
  limits: RunLimits = defaultRunLimits(),
  options: RunLimitsOptions = {},
): Promise<RunLimitsHandle> {
  const checked = checkedLimits(limits);
  const name = runCgroupName(runId);
  return (await probeOnce(options)).makeRun(name, checked);
}

/** The limits of this configuration (GAFFER_AGENT_MAX_PROCESSES, _MEMORY_MB, _CPU_CORES, _MAX_RUN_SECONDS). */
export function agentRunLimits(config: {
  agentMaxProcesses: number;
  agentMemoryMb: number;
  agentCpuCores: number | undefined;
  agentMaxRunSeconds: number;
}): RunLimits {
  return {
    maxProcesses: config.agentMaxProcesses,
    memoryMb: config.agentMemoryMb,
    cpuCores: config.agentCpuCores ?? defaultCpuCores(),
    wallSeconds: config.agentMaxRunSeconds,
  };
}

/** What an operator must hear about run limits: nothing while a cgroup holds every run. */
export function runLimitsWarnings(state: RunLimitsState): string[] {
  return state.ready ? [] : [`agent runs are limited only on a best-effort basis: ${state.reason}`];
}

type Mechanism = {
  mechanism: 'cgroup1' | 'cgroup2';
  /** The runs' parents (removed when this process exits, if empty). */
  parents: string[];
  cpu: boolean;
  create(name: string, limits: RunLimits): CgroupBackend;
};

async function probeHost(options: RunLimitsOptions): Promise<Probe> {
  const { mounts, cgroups } = ownCgroups();
  const reasons: string[] = [];
  const v2 = locateV2(mounts, cgroups, options.cgroupParent);
  if (v2.ok) {
    const made = await tryMechanism(() => {
      const parent = prepareV2Parent(v2.dirs);
      return {
        mechanism: 'cgroup2',
        parents: [parent.dir],
        cpu: parent.cpu,
        create: (name, limits) => createV2Run(parent, name, limits),
      };
    });
    if (typeof made !== 'string') return cgroupProbe(made);
    reasons.push(`cgroup v2: ${made}`);
  } else {
    reasons.push(`cgroup v2: ${v2.reason}`);
  }
  const v1 = locateV1(mounts, cgroups);
  if (v1.ok) {
    const made = await tryMechanism(() => {
      const parents = prepareV1Parents(v1.dirs);
      return {
        mechanism: 'cgroup1',
        parents: [...new Set([parents.pids, parents.memory, ...(parents.cpu ? [parents.cpu] : [])])],
        cpu: parents.cpu !== null,
        create: (name, limits) => createV1Run(parents, name, limits),
      };
    });
    if (typeof made !== 'string') return cgroupProbe(made);
    reasons.push(`cgroup v1: ${made}`);
  } else {
    reasons.push(`cgroup v1: ${v1.reason}`);
  }
  return rlimitProbe(reasons);
}

/** Prepares a mechanism and proves it: a trial shell enters a trial cgroup and exits 0. */
async function tryMechanism(prepare: () => Mechanism): Promise<Mechanism | string> {
  let made: Mechanism;
  let trial: CgroupBackend;
  try {
    made = prepare();
    trial = made.create(`probe-${randomUUID().slice(0, 8)}`, defaultRunLimits());
  } catch (error) {
    return (error as Error).message;
  }
  const argv = enterCgroupArgv(trial.procsFiles, ['/bin/sh', '-c', 'exit 0']);
  const failure = await new Promise<string | null>((done) => {
    execFile(argv[0]!, argv.slice(1), { timeout: 10_000, env: {} }, (error, _stdout, stderr) =>
      done(error ? String(stderr).trim() || error.message : null),
    );
  });
  await trial.killAll(1_000);
  await trial.remove(1_000);
  if (failure) {
    for (const dir of made.parents) tryRmdir(dir);
    return `a trial process could not enter its cgroup: ${failure}`;
  }
  removeParentsOnExit(made.parents);
  return made;
}

const madeParents = new Set<string>();

/** The runs' parents go with this process when empty (a crash leaves them to the next probe's sweep). */
function removeParentsOnExit(parents: readonly string[]): void {
  if (madeParents.size === 0) {
    process.once('exit', () => {
      for (const dir of madeParents) tryRmdir(dir);
    });
  }
  for (const dir of parents) madeParents.add(dir);
}

function cgroupProbe(made: Mechanism): Probe {
  return {
    state: {
      mechanism: made.mechanism,
      ready: true,
      reason: null,
      enforced: ['processes', 'memory', ...(made.cpu ? (['cpu'] as const) : []), 'wall_time'],
    },
    makeRun: (name, limits) => new CgroupRun(made.create(name, limits), limits),
  };
}

function rlimitProbe(reasons: readonly string[]): Probe {
  const prlimit = findProgram('prlimit', process.env.PATH ?? '/usr/bin:/bin');
  const applies = prlimit
    ? 'only rlimits apply, per process and best effort (processes per user, memory per process, CPU seconds; the CPU share is not capped)'
    : 'and prlimit (util-linux) is not installed: no cap but the wall time applies';
  return {
    state: {
      mechanism: 'rlimits',
      ready: false,
      reason: `no cgroup can be made for the runs here (${reasons.join('; ')}); ${applies}`,
      enforced: ['wall_time'],
    },
    makeRun: (_name, limits) =>
      new RlimitRun(limits, (argv) => (prlimit ? rlimitArgv(limits, argv, prlimit) : [...argv])),
  };
}
