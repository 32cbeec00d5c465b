/**
 * The cgroup file system as run limits use it: where this process's cgroups are (from
 * /proc/self/cgroup and /proc/self/mountinfo), reading and writing control files, and what every
 * mechanism does to a run's cgroup at its end: SIGKILL whatever it holds until it holds nothing,
 * then rmdir it. Paths only ever reach the kernel as file names, never through a shell.
 */
import {
  accessSync,
  constants,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export interface CgroupMount {
  version: 1 | 2;
  /** The hierarchy's directory this mount shows (`/` but in some containers). */
  root: string;
  mountPoint: string;
  /** v1: the mount's options (the controllers among them: `pids`, `memory`, `cpu`…). */
  options: string[];
}

/** The cgroup mounts listed in /proc/<pid>/mountinfo's text. */
export function parseMountInfo(text: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of text.split('\n')) {
    const dash = line.indexOf(' - ');
    if (dash < 0) continue;
    const fields = line.slice(0, dash).split(' ');
    const [fsType, , superOptions = ''] = line.slice(dash + 3).split(' ');
    if (fsType !== 'cgroup' && fsType !== 'cgroup2') continue;
    mounts.push({
      version: fsType === 'cgroup2' ? 2 : 1,
      root: unescapeOctal(fields[3] ?? '/'),
      mountPoint: unescapeOctal(fields[4] ?? ''),
      options: superOptions.split(','),
    });
  }
  return mounts;
}

/** mountinfo writes a space as `\040`, a tab as `\011`… */
const unescapeOctal = (text: string) =>
  text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));

export interface ProcCgroups {
  /** The cgroup v2 path (the `0::` line), null where there is none. */
  unified: string | null;
  /** v1: controller → path (`4:memory:/a/b` gives memory → /a/b). */
  byController: Map<string, string>;
}

/** The text of /proc/<pid>/cgroup. */
export function parseProcCgroup(text: string): ProcCgroups {
  const found: ProcCgroups = { unified: null, byController: new Map() };
  for (const line of text.split('\n')) {
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1);
    if (line.slice(0, first) === '0' && controllers === '') found.unified = path;
    else for (const name of controllers.split(',')) found.byController.set(name, path);
  }
  return found;
}

/**
 * The directory of cgroup `path` under `mount`; null when the mount does not show it (a path
 * outside the mount's root, or one climbing out of a cgroup namespace: `/../..`).
 */
export function cgroupDir(mount: CgroupMount, path: string): string | null {
  if (!path.startsWith('/') || path.split('/').includes('..')) return null;
  const root = mount.root.replace(/\/+$/, '');
  if (path !== root && !path.startsWith(`${root}/`)) return null;
  // no trailing slash for the mount's own root: the path reads as the directory it is in messages
  return join(mount.mountPoint, path.slice(root.length)).replace(/(.)\/+$/, '$1');
}

/** This process's cgroup mounts and memberships, read from /proc; empty where there is no /proc. */
export function ownCgroups(): { mounts: CgroupMount[]; cgroups: ProcCgroups } {
  return {
    mounts: parseMountInfo(readText('/proc/self/mountinfo') ?? ''),
    cgroups: parseProcCgroup(readText('/proc/self/cgroup') ?? ''),
  };
}

export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Writes one value to a control file; the error names the file and keeps the kernel's code (EBUSY…). */
export function writeControl(path: string, value: string): void {
  try {
    writeFileSync(path, value);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw Object.assign(
      new Error(`could not write "${value}" to ${path}: ${code ?? (error as Error).message}`),
      {
        code,
      },
    );
  }
}

/**
 * Makes the cgroup directory `dir`. One left by an earlier run of the same name is reused when it
 * holds no process (its limits are written again); one that still does is refused.
 */
export function makeCgroupDir(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (procsOf(dir).length > 0) throw new Error(`${dir} exists and still holds processes`);
  }
}

/** The run cgroup's directory name for `runId` (only letters, digits, `_` and `-` reach a path). */
export function runCgroupName(runId: string): string {
  const safe = runId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
  if (!safe) throw new Error('a run cgroup needs a run id');
  return `run-${safe}`;
}

/** The number after `key` in a flat-keyed file (`max 3`, `oom_kill 1`); 0 when absent. */
export function countOf(text: string | null, key: string): number {
  for (const line of (text ?? '').split('\n')) {
    const [name, value] = line.trim().split(/\s+/);
    if (name === key) return Number(value) || 0;
  }
  return 0;
}

export function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The processes a cgroup holds (an empty list once it is gone). */
export function procsOf(dir: string): number[] {
  return (readText(join(dir, 'cgroup.procs')) ?? '')
    .split('\n')
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * SIGKILL to every process in `dirs`, again and again, until they hold none or `limitMs` passed:
 * a process forking while the list is read is caught by the next round (the pids cap bounds how
 * many rounds a fork bomb can take). `first` runs once before (v2: `cgroup.kill`, which is atomic).
 */
export async function killUntilEmpty(
  dirs: readonly string[],
  limitMs: number,
  first?: () => void,
): Promise<void> {
  try {
    first?.();
  } catch {
    // the rounds below still kill
  }
  const until = Date.now() + limitMs;
  for (;;) {
    const pids = new Set(dirs.flatMap(procsOf));
    if (pids.size === 0 || Date.now() > until) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await delay(10);
  }
}

/**
 * Removes cgroup directories (rmdir: a cgroup holds control files nobody may unlink), retrying while
 * the kernel still counts a process that has just died (EBUSY); false when one could not go.
 */
export async function removeCgroupDirs(dirs: readonly string[], limitMs: number): Promise<boolean> {
  const until = Date.now() + limitMs;
  let busy = [...dirs];
  let failed = false;
  for (;;) {
    const tried = busy.map((dir) => [dir, rmdirOutcome(dir)] as const);
    failed ||= tried.some(([, outcome]) => outcome === 'failed');
    busy = tried.filter(([, outcome]) => outcome === 'busy').map(([dir]) => dir);
    if (busy.length === 0) return !failed;
    if (Date.now() > until) return false;
    await delay(20);
  }
}

function rmdirOutcome(dir: string): 'gone' | 'busy' | 'failed' {
  try {
    rmdirSync(dir);
    return 'gone';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'gone' : code === 'EBUSY' ? 'busy' : 'failed';
  }
}

/** rmdir; true when the directory is gone (or never was). */
export const tryRmdir = (dir: string): boolean => rmdirOutcome(dir) === 'gone';

/** The parent of every run cgroup of server process `pid`. */
export const PARENT_PREFIX = 'gaffer-runs-';
export const parentName = (pid: number) => `${PARENT_PREFIX}${pid}`;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the run parents under `base` that servers which no longer run left behind: only their
 * run cgroups holding no process, then the parent if that emptied it. A live server's are untouched.
 */
export function removeStaleParents(base: string): void {
  let entries: string[];
  try {
    entries = readdirSync(base);
  } catch {
    return;
  }
  for (const entry of entries) {
    const owner = entry.startsWith(PARENT_PREFIX) ? Number(entry.slice(PARENT_PREFIX.length)) : Number.NaN;
    if (!Number.isInteger(owner) || owner <= 0 || owner === process.pid || pidAlive(owner)) continue;
    const parent = join(base, entry);
    for (const run of subdirs(parent)) {
      if (procsOf(join(parent, run)).length === 0) tryRmdir(join(parent, run));
    }
    tryRmdir(parent);
  }
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}
