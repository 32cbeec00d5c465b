/**
 * Starting a command as the leader of a process group of its own (no shell), and signalling the
 * whole group, so stopping an agent also stops everything it started (its MCP server, a test run,
 * a dev server).
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export type GroupLeader = ChildProcessByStdio<null, Readable, Readable>;

export class ProcessStartError extends Error {
  constructor(
    readonly program: string,
    override readonly cause: Error,
  ) {
    super(`could not start ${program}: ${cause.message}`);
    this.name = 'ProcessStartError';
  }
}

/** Starts `argv` detached (its own process group), stdin closed, stdout and stderr piped. */
export function startProcessGroup(
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<GroupLeader> {
  const [program, ...args] = argv;
  if (!program) return Promise.reject(new Error('empty command'));
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
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
