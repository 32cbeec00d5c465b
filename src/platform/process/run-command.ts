/**
 * Runs a non-git program from an argv array — never through a shell — in an environment the
 * caller builds whole (nothing is inherited), with a timeout and an AbortSignal. The program leads
 * a process group of its own: a timeout or an abort kills the whole group with SIGKILL, and so
 * does the program's own end (whatever it left running goes with it). The promise settles only
 * once no process of the group is left, so the caller may remove the directory it ran in.
 * Output is kept, bounded: the last `maxOutputBytes` of each stream (where errors usually are).
 */
import { groupGone, killGroup, spawnGroup } from './group.js';

export interface CommandOptions {
  cwd: string;
  /** The program's whole environment: nothing of this process's environment is added. */
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Bytes kept of each of stdout and stderr (the tail); default 64 KiB. */
  maxOutputBytes?: number;
}

export interface CommandResult {
  /** The exit code; null when a signal ended the program. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The tail of stdout, UTF-8. */
  stdout: string;
  /** The tail of stderr, UTF-8. */
  stderr: string;
  /** True when either stream passed `maxOutputBytes` and only its tail was kept. */
  truncated: boolean;
  durationMs: number;
}

export type CommandFailure =
  /** The argv was refused before anything ran (empty, a NUL byte). */
  | 'bad_argument'
  /** The program could not be started (not found, not executable, no such cwd). */
  | 'spawn_failed'
  /** The program outlived its timeout; its process group was killed. */
  | 'timeout'
  /** The caller's signal fired; the process group was killed. */
  | 'aborted';

export class CommandError extends Error {
  constructor(
    readonly failure: CommandFailure,
    message: string,
    /** The tail of the program's stderr when it ran at all. */
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

const DEFAULT_MAX_OUTPUT = 64 * 1024;
/** Longest wait for the output pipes to close once the group is killed (a process that left the group). */
const DRAIN_LIMIT_MS = 2_000;
/** Longest wait for the killed group's processes to be gone. */
const GROUP_GONE_LIMIT_MS = 5_000;

/**
 * Runs `argv[0]` with `argv.slice(1)` as its arguments. Resolves with the result whatever the exit
 * code (the caller decides what a non-zero exit means); rejects with a CommandError when it could
 * not run, timed out or was aborted.
 */
export function runCommand(argv: readonly string[], options: CommandOptions): Promise<CommandResult> {
  const [program, ...args] = argv;
  if (!program) return Promise.reject(new CommandError('bad_argument', 'the command is empty'));
  if (argv.some((word) => word.includes('\0'))) {
    return Promise.reject(new CommandError('bad_argument', 'a command argument contains a NUL byte'));
  }
  if (options.signal?.aborted) {
    return Promise.reject(new CommandError('aborted', `${program} was aborted before it started`));
  }
  const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const startedAt = Date.now();
  return new Promise<CommandResult>((resolve, reject) => {
    const stdout = new TailBuffer(limit);
    const stderr = new TailBuffer(limit);
    let ended: 'timeout' | 'aborted' | null = null;
    let settled = false;
    const child = spawnGroup(program, args, { cwd: options.cwd, env: options.env, stdin: 'ignore' });
    const stop = (why: 'timeout' | 'aborted') => {
      ended ??= why;
      killGroup(child.pid);
    };
    const onAbort = () => stop('aborted');
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const closed = new Promise<void>((done) => child.once('close', () => done()));
    child.on('error', (error) => {
      // An error after a successful start (a failed kill) changes nothing; before it, nothing ran.
      if (child.pid !== undefined) return;
      settle(() => reject(new CommandError('spawn_failed', `${program} could not start: ${error.message}`)));
    });
    child.once('exit', async (code, signal) => {
      clearTimeout(timer);
      // Whatever the program left running in its group goes with it.
      killGroup(child.pid);
      await Promise.race([closed, delay(DRAIN_LIMIT_MS)]);
      child.stdout.destroy();
      child.stderr.destroy();
      await groupGone(child.pid, GROUP_GONE_LIMIT_MS);
      const errorText = stderr.text();
      const seconds = `${Number((options.timeoutMs / 1000).toFixed(3))} s`;
      settle(() => {
        if (ended === 'aborted') reject(new CommandError('aborted', `${program} was aborted`, errorText));
        else if (ended === 'timeout')
          reject(new CommandError('timeout', `${program} timed out after ${seconds}`, errorText));
        else
          resolve({
            exitCode: code,
            signal,
            stdout: stdout.text(),
            stderr: errorText,
            truncated: stdout.truncated || stderr.truncated,
            durationMs: Date.now() - startedAt,
          });
      });
    });
  });
}

/** The last `limit` bytes written to it. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 0) {
      const first = this.chunks[0]!;
      const excess = this.size - this.limit;
      this.truncated = true;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
