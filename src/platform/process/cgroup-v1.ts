/**
 * Run limits through cgroup v1: one hierarchy per controller, writable by root. A run gets a cgroup
 * in each of the pids, memory and (where mounted) cpu hierarchies, at
 * `<this server's cgroup there>/gaffer-runs-<pid>/run-<id>`: nested under the server's own cgroup,
 * so whatever bounds the server bounds its runs too.
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
  readText,
  removeCgroupDirs,
  removeStaleParents,
  writeControl,
} from './cgroup-files.js';
import type { CgroupBackend } from './run-cgroup.js';
import { bytesOf, CPU_PERIOD_US, cpuQuotaUs, type RunLimits } from './run-limit-caps.js';

/** A directory per controller: the server's own cgroups (bases) or the runs' parents under them. */
export interface V1Dirs {
  pids: string;
  memory: string;
  /** null where no cpu hierarchy is mounted: the CPU share is then not capped. */
  cpu: string | null;
}

export type Located<T> = { ok: true; dirs: T } | { ok: false; reason: string };

/** Where this process's v1 cgroups are, or why runs cannot have any. */
export function locateV1(mounts: readonly CgroupMount[], cgroups: ProcCgroups): Located<V1Dirs> {
  const where = (controller: string): string | { missing: string } => {
    const mount = mounts.find((m) => m.version === 1 && m.options.includes(controller));
    if (!mount) return { missing: `no cgroup v1 hierarchy for ${controller} is mounted` };
    const path = cgroups.byController.get(controller) ?? '/';
    const dir = cgroupDir(mount, path);
    if (!dir)
      return {
        missing: `this process's ${controller} cgroup ${path} is not visible under ${mount.mountPoint}`,
      };
    if (!isWritable(dir)) {
      const uid = process.getuid?.() ?? -1;
      return { missing: `cgroup v1 needs root: ${dir} is not writable by uid ${uid}` };
    }
    return dir;
  };
  const pids = where('pids');
  const memory = where('memory');
  const cpu = where('cpu');
  if (typeof pids !== 'string') return { ok: false, reason: pids.missing };
  if (typeof memory !== 'string') return { ok: false, reason: memory.missing };
  return { ok: true, dirs: { pids, memory, cpu: typeof cpu === 'string' ? cpu : null } };
}

/** Makes this server's parent in each hierarchy (after sweeping dead servers' ones). */
export function prepareV1Parents(bases: V1Dirs, pid = process.pid): V1Dirs {
  const parents: V1Dirs = {
    pids: join(bases.pids, parentName(pid)),
    memory: join(bases.memory, parentName(pid)),
    cpu: bases.cpu ? join(bases.cpu, parentName(pid)) : null,
  };
  for (const base of distinct([bases.pids, bases.memory, bases.cpu])) removeStaleParents(base);
  ensureV1Parents(parents);
  return parents;
}

/** (Again) makes the parents: mkdir is idempotent, and a parent may have been swept while empty. */
function ensureV1Parents(parents: V1Dirs): void {
  for (const dir of distinct([parents.pids, parents.memory, parents.cpu]))
    mkdirSync(dir, { recursive: true });
}

const distinct = (dirs: ReadonlyArray<string | null>) => [
  ...new Set(dirs.filter((dir): dir is string => dir !== null)),
];

/** Makes run `name`'s cgroups under `parents` with `limits` written; removes them again on failure. */
export function createV1Run(parents: V1Dirs, name: string, limits: RunLimits): CgroupBackend {
  ensureV1Parents(parents);
  const run: V1Dirs = {
    pids: join(parents.pids, name),
    memory: join(parents.memory, name),
    cpu: parents.cpu ? join(parents.cpu, name) : null,
  };
  const dirs = distinct([run.pids, run.memory, run.cpu]);
  try {
    for (const dir of dirs) makeCgroupDir(dir);
    writeControl(join(run.pids, 'pids.max'), String(limits.maxProcesses));
    const bytes = String(bytesOf(limits));
    writeControl(join(run.memory, 'memory.limit_in_bytes'), bytes);
    // With swap accounting the memory+swap cap equals the memory cap: the run may not swap past it.
    const memsw = join(run.memory, 'memory.memsw.limit_in_bytes');
    if (existsSync(memsw)) writeControl(memsw, bytes);
    if (run.cpu) {
      writeControl(join(run.cpu, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
      writeControl(join(run.cpu, 'cpu.cfs_quota_us'), String(cpuQuotaUs(limits)));
    }
  } catch (error) {
    void removeCgroupDirs(dirs, 0);
    throw error;
  }
  return {
    mechanism: 'cgroup1',
    procsFiles: dirs.map((dir) => join(dir, 'cgroup.procs')),
    hit: () => v1Hit(run),
    // v1 has no cgroup.kill: SIGKILL every process listed, until none is
    killAll: (limitMs) => killUntilEmpty(dirs, limitMs),
    remove: (limitMs) => removeCgroupDirs(dirs, limitMs),
  };
}

/**
 * A fork refused at the cap (`pids.events` max), or a process of the run killed by the OOM killer
 * (`memory.oom_control` oom_kill, since Linux 4.13). v1's OOM killer takes one process, not the
 * group: the handle kills the rest. `memory.failcnt` is not used: it also counts the page cache
 * reclaimed at the limit, which a healthy run reading big files does all the time.
 */
export function v1Hit(run: Pick<V1Dirs, 'pids' | 'memory'>): 'processes' | 'memory' | null {
  if (countOf(readText(join(run.pids, 'pids.events')), 'max') > 0) return 'processes';
  if (countOf(readText(join(run.memory, 'memory.oom_control')), 'oom_kill') > 0) return 'memory';
  return null;
}
