/**
 * Runs the real `git` binary from an argv array (never a shell) with a scrubbed environment
 * (env.ts), a timeout and an AbortSignal. Each git runs in a process group of its own, so an
 * abort or timeout kills git together with its helpers (remote-https, index-pack, ssh), and the
 * returned promise settles only once they are gone. Failures become a GitError whose stderr and
 * argv are scrubbed of the call's credentials.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupGone, killGroup, spawnGroup } from '../process/group.js';
import { authSecrets, buildGitEnv, type GitAuth, type GitIdentity } from './env.js';
import { GitError, type GitFailure, scrubSecrets } from './errors.js';

/** Per-call options every operation accepts. */
export interface GitCall {
  signal?: AbortSignal | undefined;
  /** Overrides the runner's default timeout. */
  timeoutMs?: number | undefined;
  /** Credentials for network calls (clone, fetch, push, ls-remote); ignored by local ones. */
  auth?: GitAuth | null | undefined;
}

export interface GitRunOptions extends GitCall {
  cwd: string;
  identity?: GitIdentity | undefined;
  gnupgHome?: string | undefined;
  /** Exit codes that are answers, not failures (e.g. 1 from `diff --quiet`). */
  okExitCodes?: readonly number[];
  maxBufferBytes?: number;
  /** Sent to git's stdin; stdin is closed either way. */
  stdin?: string;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

/** What a test observer sees of each git process started. */
export interface GitSpawn {
  readonly argv: readonly string[];
  /** Holds the call's credentials (that is where they travel): for assertions, never for logs. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly pid: number | undefined;
}

export interface GitRunnerOptions {
  /** The isolated HOME of every git call (ssh's known_hosts may live there). */
  home?: string;
  /** Default 10 minutes: long enough for a clone of a large repository. */
  defaultTimeoutMs?: number;
  /** Default 64 MiB of stdout per call. */
  maxBufferBytes?: number;
  binary?: string;
  /** Called for every git process started (tests capture argv and env through it). */
  onSpawn?: (spawn: GitSpawn) => void;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_MAX_BUFFER = 64 * 1024 * 1024;
/** Longest wait, after a kill, for git's helpers to be gone. */
const GROUP_GONE_LIMIT_MS = 2_000;

export class GitRunner {
  readonly home: string;
  private readonly binary: string;
  private readonly defaultTimeoutMs: number;
  private readonly maxBufferBytes: number;
  private readonly onSpawn: ((spawn: GitSpawn) => void) | undefined;

  constructor(options: GitRunnerOptions = {}) {
    this.home = options.home ?? join(tmpdir(), 'gaffer-git-home');
    this.binary = options.binary ?? 'git';
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBufferBytes = options.maxBufferBytes ?? DEFAULT_MAX_BUFFER;
    this.onSpawn = options.onSpawn;
  }

  /** Runs `git <args>`; resolves with its output, rejects with a GitError. */
  run(args: readonly string[], options: GitRunOptions): Promise<GitResult> {
    const secrets = authSecrets(options.auth);
    const scrubbedArgs = args.map((arg) => scrubSecrets(arg, secrets));
    if (args.some((arg) => arg.includes('\0'))) {
      return Promise.reject(new GitError('bad_argument', 'a git argument contains a NUL byte', scrubbedArgs));
    }
    if (options.signal?.aborted) {
      return Promise.reject(new GitError('aborted', `git ${args[0] ?? ''} aborted`, scrubbedArgs));
    }
    const env = buildGitEnv({
      home: this.home,
      auth: options.auth,
      identity: options.identity,
      gnupgHome: options.gnupgHome,
    });
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise<GitResult>((resolve, reject) => {
      const maxBuffer = options.maxBufferBytes ?? this.maxBufferBytes;
      let ended: 'aborted' | 'timeout' | 'output_too_large' | null = null;
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let stdoutBytes = 0;
      // an argv array and no shell (as execFile does), but git leads a process group of its own
      // that an abort can kill whole; execFile cannot detach.
      const child = spawnGroup(this.binary, args, { cwd: options.cwd, env });
      const stop = (why: 'aborted' | 'timeout' | 'output_too_large') => {
        ended ??= why;
        killGroup(child.pid);
      };
      const onAbort = () => stop('aborted');
      const timer = setTimeout(() => stop('timeout'), timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (chunk: Buffer) => {
        stdoutBytes += chunk.length;
        if (stdoutBytes > maxBuffer) stop('output_too_large');
        else stdout.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 256) stderr.push(chunk);
      });
      child.stdin.on('error', () => {});
      child.stdin.end(options.stdin ?? '');
      let spawnError: Error | null = null;
      child.on('error', (error) => {
        spawnError = error;
      });
      child.on('close', async (code) => {
        clearTimeout(timer);
        if (ended) await groupGone(child.pid, GROUP_GONE_LIMIT_MS);
        options.signal?.removeEventListener('abort', onAbort);
        const errorText = scrubSecrets(Buffer.concat(stderr).toString('utf8'), secrets).trim();
        const fail = (failure: GitFailure, message: string, exitCode: number | null = code) =>
          reject(new GitError(failure, message, scrubbedArgs, exitCode, errorText));
        const verb = args[0] ?? '';
        if (ended === 'aborted') return fail('aborted', `git ${verb} aborted`);
        if (ended === 'timeout') return fail('timeout', `git ${verb} timed out after ${timeoutMs} ms`);
        if (ended === 'output_too_large')
          return fail('output_too_large', `git ${verb} output passed ${maxBuffer} bytes`);
        if (spawnError || code === null) {
          const reason = scrubSecrets(spawnError?.message ?? 'killed by a signal', secrets);
          return fail('spawn_failed', `git could not run: ${reason}`, null);
        }
        if (code !== 0 && !options.okExitCodes?.includes(code)) {
          const summary = errorText.split('\n').filter(Boolean).slice(-3).join(' / ') || 'no message';
          return fail('exit', `git ${verb} failed (exit ${code}): ${summary}`);
        }
        resolve({ stdout: Buffer.concat(stdout), stderr: errorText, exitCode: code });
      });
      this.onSpawn?.({ argv: [this.binary, ...args], env, cwd: options.cwd, pid: child.pid });
    });
  }

  /** Runs `git <args>` and answers its stdout as trimmed UTF-8 text. */
  async text(args: readonly string[], options: GitRunOptions): Promise<string> {
    const result = await this.run(args, options);
    return result.stdout.toString('utf8').trimEnd();
  }
}
