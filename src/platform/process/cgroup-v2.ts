/**
 * Run limits through cgroup v2, in a subtree delegated to the server (systemd: `Delegate=yes` in its
 * unit, or a delegated cgroup it is given). v2 lets only a cgroup with no processes of its own hand
 * controllers to its children, so when the server's cgroup holds the server, the server's processes
 * move into a leaf beside the runs first:
 *
 *   <delegated>/gaffer-server            the server (moved here only when it had to be)
 *   <delegated>/gaffer-runs-<pid>/run-…  one cgroup per run: pids.max, memory.max, cpu.max
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CgroupMount,
  cgroupDir,
  countOf,
  isWritable,
  killUntilEmpty,
  makeCgroupDir,
  type ProcCgroups,
  parentName,
  procsOf,
  readText,
  removeCgroupDirs,
  removeStaleParents,
  writeControl,
} from './cgroup-files.js';
import type { Located } from './cgroup-v1.js';
import type { CgroupBackend } from './run-cgroup.js';
import { bytesOf, CPU_PERIOD_US, cpuQuotaUs, type RunLimits } from './run-limit-caps.js';

const REQUIRED = ['pids', 'memory'] as const;
/** Where the server's own processes go when its cgroup must hand controllers down. */
export const SERVER_LEAF = 'gaffer-server';

export interface V2Dirs {
  dir: string;
  /** Whether the cpu controller is offered (else the CPU share is not capped). */
  cpu: boolean;
}

const controllersOf = (dir: string) => (readText(join(dir, 'cgroup.controllers')) ?? '').trim().split(/\s+/);

/**
 * The delegated cgroup the runs go under (`delegated`, else this process's own), or why there is
 * none: no cgroup2 mount, its controllers bound to v1 hierarchies, or a cgroup not delegated.
 */
export function locateV2(
  mounts: readonly CgroupMount[],
  cgroups: ProcCgroups,
  delegated?: string,
): Located<V2Dirs> {
  const mount = mounts.find((m) => m.version === 2);
  if (!mount) return { ok: false, reason: 'no cgroup2 file system is mounted' };
  const own = cgroups.unified === null ? null : cgroupDir(mount, cgroups.unified);
  const base = delegated ?? own;
  if (!base)
    return { ok: false, reason: `this process's cgroup v2 is not visible under ${mount.mountPoint}` };
  const offered = controllersOf(base);
  const missing = REQUIRED.filter((name) => !offered.includes(name));
  if (missing.length > 0) {
    const atRoot = controllersOf(mount.mountPoint);
    if (REQUIRED.some((name) => !atRoot.includes(name))) {
      return {
        ok: false,
        reason: `the cgroup v2 hierarchy at ${mount.mountPoint} has no ${missing.join(' or ')} controller (bound to cgroup v1 hierarchies here)`,
      };
    }
    return {
      ok: false,
      reason: `${base} is not delegated to the server: its ${missing.join(', ')} controllers are not enabled for it (run the server as a systemd service with Delegate=yes, or start it in a delegated cgroup)`,
    };
  }
  const files = [base, join(base, 'cgroup.procs'), join(base, 'cgroup.subtree_control')];
  const locked = files.find((file) => !isWritable(file));
  if (locked) {
    const uid = process.getuid?.() ?? -1;
    return {
      ok: false,
      reason: `${locked} is not writable by uid ${uid}: ${base} is not delegated to the server (systemd: Delegate=yes in its unit)`,
    };
  }
  return { ok: true, dirs: { dir: base, cpu: offered.includes('cpu') } };
}

const wantedOf = (cpu: boolean) => [...REQUIRED, ...(cpu ? ['cpu'] : [])];

/**
 * Hands the controllers down from `dir` to its children. The kernel refuses (EBUSY) while `dir`
 * itself holds processes; with `moveOut`, they move into the SERVER_LEAF child, and it asks again.
 */
export function enableControllers(dir: string, cpu: boolean, moveOut: boolean): void {
  const wanted = wantedOf(cpu);
  const enabled = (readText(join(dir, 'cgroup.subtree_control')) ?? '').trim().split(/\s+/);
  if (wanted.every((name) => enabled.includes(name))) return;
  const request = wanted.map((name) => `+${name}`).join(' ');
  try {
    writeControl(join(dir, 'cgroup.subtree_control'), request);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EBUSY' || !moveOut) throw error;
    moveProcessesToLeaf(dir);
    writeControl(join(dir, 'cgroup.subtree_control'), request);
  }
}

/** Every process of `dir` into `dir/gaffer-server` (one that exits meanwhile is no matter). */
function moveProcessesToLeaf(dir: string): void {
  const leaf = join(dir, SERVER_LEAF);
  mkdirSync(leaf, { recursive: true });
  for (const pid of procsOf(dir)) {
    try {
      writeControl(join(leaf, 'cgroup.procs'), String(pid));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

/** Makes this server's runs' parent under the delegated `base` (sweeping dead servers' ones first). */
export function prepareV2Parent(base: V2Dirs, pid = process.pid): V2Dirs {
  removeStaleParents(base.dir);
  enableControllers(base.dir, base.cpu, true);
  const parent = { dir: join(base.dir, parentName(pid)), cpu: base.cpu };
  ensureV2Parent(parent);
  return parent;
}

/** (Again) makes the parent: it may have been swept while empty. It never holds a process. */
function ensureV2Parent(parent: V2Dirs): void {
  mkdirSync(parent.dir, { recursive: true });
  enableControllers(parent.dir, parent.cpu, false);
}

/** Makes run `name`'s cgroup under `parent` with `limits` written; removes it again on failure. */
export function createV2Run(parent: V2Dirs, name: string, limits: RunLimits): CgroupBackend {
  ensureV2Parent(parent);
  const dir = join(parent.dir, name);
  try {
    makeCgroupDir(dir);
    writeControl(join(dir, 'pids.max'), String(limits.maxProcesses));
    writeControl(join(dir, 'memory.max'), String(bytesOf(limits)));
    // No swap past the cap, and an OOM kill takes the whole run at once rather than one process.
    const swap = join(dir, 'memory.swap.max');
    if (existsSync(swap)) writeControl(swap, '0');
    writeControl(join(dir, 'memory.oom.group'), '1');
    if (parent.cpu) writeControl(join(dir, 'cpu.max'), `${cpuQuotaUs(limits)} ${CPU_PERIOD_US}`);
  } catch (error) {
    void removeCgroupDirs([dir], 0);
    throw error;
  }
  const kill = join(dir, 'cgroup.kill');
  return {
    mechanism: 'cgroup2',
    procsFiles: [join(dir, 'cgroup.procs')],
    hit: () => v2Hit(dir),
    // cgroup.kill (Linux 5.14) kills the whole cgroup at once; the SIGKILL rounds catch an older kernel
    killAll: (limitMs) =>
      killUntilEmpty([dir], limitMs, () => {
        if (existsSync(kill)) writeControl(kill, '1');
      }),
    remove: (limitMs) => removeCgroupDirs([dir], limitMs),
  };
}

/** A fork refused at the cap (`pids.events` max), or an OOM kill in the run (`memory.events`). */
export function v2Hit(dir: string): 'processes' | 'memory' | null {
  if (countOf(readText(join(dir, 'pids.events')), 'max') > 0) return 'processes';
  const memory = readText(join(dir, 'memory.events'));
  if (countOf(memory, 'oom_kill') > 0 || countOf(memory, 'oom_group_kill') > 0) return 'memory';
  return null;
}
