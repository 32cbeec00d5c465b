/**
 * The one process-group wrapper. A program is started from an argv array (never a shell) as the
 * leader of a process group of its own (detached), so that signalling the group reaches everything
 * it started (git's remote helpers, an agent's MCP server, a test run). Stopping is SIGTERM to the
 * group, a grace period, then SIGKILL (a grace of 0 is SIGKILL at once); `groupGone` waits until no
 * process of the group is left, so a caller may remove the directory it ran in.
 * Used by the git runner, `runCommand` and the agent runtime.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

export interface GroupSpawnOptions {
  cwd: string;
  /** The program's whole environment: nothing of this process's environment is added. */
  env: Readonly<Record<string, string>>;
}

/** A group leader whose stdout and stderr are piped; stdin closed. */
export type GroupLeader = ChildProcessByStdio<null, Readable, Readable>;
/** A group leader whose stdin, stdout and stderr are piped. */
export type PipedGroupLeader = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Spawns `program args` at once (synchronously) as a group leader with stdin piped. A program that
 * cannot start reports it through the child's 'error' event, as `spawn` does.
 */
export function spawnGroup(
  program: string,
  args: readonly string[],
  options: GroupSpawnOptions,
): PipedGroupLeader;
export function spawnGroup(
  program: string,
  args: readonly string[],
  options: GroupSpawnOptions & { stdin: 'ignore' },
): GroupLeader;
export function spawnGroup(
  program: string,
  args: readonly string[],
  options: GroupSpawnOptions & { stdin?: 'ignore' | 'pipe' },
): GroupLeader | PipedGroupLeader {
  return spawn(program, [...args], {
    cwd: options.cwd,
    env: { ...options.env },
    shell: false,
    // the leader of a process group of its own, which a stop can signal whole
    detached: true,
    windowsHide: true,
    stdio: [options.stdin ?? 'pipe', 'pipe', 'pipe'],
  }) as GroupLeader | PipedGroupLeader;
}

export class ProcessStartError extends Error {
  constructor(
    readonly program: string,
    override readonly cause: Error,
  ) {
    super(`could not start ${program}: ${cause.message}`);
    this.name = 'ProcessStartError';
  }

  /** The program is on no directory of the PATH it would be looked up on. */
  static notOnPath(program: string): ProcessStartError {
    return new ProcessStartError(
      program,
      Object.assign(new Error('not found on the PATH'), { code: 'ENOENT' }),
    );
  }
}

/**
 * Starts `argv` as a group leader (stdin closed, stdout and stderr piped) and resolves once it
 * runs; rejects with a ProcessStartError when it cannot start.
 */
export function startProcessGroup(argv: readonly string[], options: GroupSpawnOptions): Promise<GroupLeader> {
  const [program, ...args] = argv;
  if (!program) return Promise.reject(new Error('empty command'));
  return new Promise((resolve, reject) => {
    const child = spawnGroup(program, args, { ...options, stdin: 'ignore' });
    const onError = (error: Error) => reject(new ProcessStartError(program, error));
    child.once('error', onError);
    child.once('spawn', () => {
      child.off('error', onError);
      resolve(child);
    });
  });
}

/** Sends `signal` to every process of the group led by `pid`; false when the group is already gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** SIGKILL to the whole group, best effort (a group already gone, or no pid, is fine). */
export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** A stop under way: SIGTERM sent, SIGKILL pending until the grace runs out or `cancel()`. */
export interface GroupStop {
  /** Whether the grace ran out and SIGKILL was sent. */
  readonly escalated: boolean;
  /** Forgets the pending SIGKILL (call it once the leader has ended). */
  cancel(): void;
  /** SIGKILL now (a harder stop asked while the grace runs). */
  killNow(): void;
}

/** How often a stop that spares the leader looks for members born after its SIGTERM. */
const LATE_MEMBERS_MS = 200;

/**
 * Stops the group led by `pid` gracefully: SIGTERM now, SIGKILL once `graceMs` has passed unless
 * cancelled (a grace of 0 escalates on the next turn of the event loop). `onEscalate` runs just
 * before the SIGKILL of an expired grace. For a stop without grace, `killGroup`.
 *
 * `spareLeader`: the SIGTERM goes to every process but the leader — the leader of a sandboxed run
 * is `bwrap`, which waits for the program and ends with its exit status, and would die of the
 * signal at once, taking the program with it before it could stop in its own time. Sent to each
 * member by pid, it could miss the members born after it: a stop asked
 * while the leader is still setting its sandbox up finds no one else yet, so members born during
 * the grace are told too (the program the sandbox starts a moment later ends in its own time).
 */
export function stopGroup(
  pid: number,
  graceMs: number,
  onEscalate?: () => void,
  options: { spareLeader?: boolean } = {},
): GroupStop {
  let timer: NodeJS.Timeout | null = null;
  let lookout: NodeJS.Timeout | null = null;
  let escalated = false;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    if (lookout) clearInterval(lookout);
    timer = null;
    lookout = null;
  };
  const told = new Set<number>();
  const tell = () => {
    const members = options.spareLeader ? (groupMembers(pid) ?? []) : [];
    const late = members.filter((member) => member !== pid && !told.has(member));
    for (const member of late) {
      told.add(member);
      try {
        process.kill(member, 'SIGTERM');
      } catch {
        // gone meanwhile
      }
    }
  };
  const started = options.spareLeader ? (groupMembers(pid) ?? []).length > 0 : signalGroup(pid, 'SIGTERM');
  if (started) {
    if (options.spareLeader) {
      tell();
      lookout = setInterval(tell, LATE_MEMBERS_MS);
    }
    timer = setTimeout(
      () => {
        cancel();
        escalated = true;
        onEscalate?.();
        signalGroup(pid, 'SIGKILL');
      },
      Math.max(0, graceMs),
    );
  }
  return {
    get escalated() {
      return escalated;
    },
    cancel,
    killNow: () => {
      cancel();
      signalGroup(pid, 'SIGKILL');
    },
  };
}

/**
 * Whether any process of group `pgid` still runs. Zombies (dead, waiting to be reaped by init) do
 * not count: they hold no files. Reads /proc where there is one, else asks kill(-pgid, 0).
 */
export function processGroupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The live (not zombie) processes of group `pgid`, read from /proc; null where there is no /proc. */
function groupMembers(pgid: number): number[] | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  return entries.flatMap((name) => {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(group) === pgid && state !== 'Z' && state !== 'X' ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

/** Waits (at most `limitMs`) until no process of the group led by `pid` is left. */
export async function groupGone(pid: number | undefined, limitMs: number): Promise<void> {
  if (!pid) return;
  const until = Date.now() + limitMs;
  while (processGroupAlive(pid) && Date.now() < until) await delay(10);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
