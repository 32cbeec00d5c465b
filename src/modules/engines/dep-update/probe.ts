/**
 * The probe: a throwaway shallow clone of one branch, the project's command run in it (argv, no
 * shell, a scrubbed environment, a timeout, the cycle's AbortSignal), then `git status` of the
 * lockfiles only. Read-only toward the real repository: the clone goes through git's transport
 * (a local path as a file:// URL, so nothing is hard-linked to the origin's objects), the token
 * travels only in git's environment and is never seen by the command, nothing is committed or
 * pushed, and the probe directory is always removed.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cloneRepo, type GitRepo, GitRunner, gitRaw, openRepo } from '../../../platform/git/index.js';
import { messageOf } from '../../../platform/message-of.js';
import {
  type AgentSandbox,
  CommandError,
  type CommandResult,
  createRunCgroup,
  type EgressRefusal,
  type RunLimitBreach,
  type RunLimits,
  runCommand,
} from '../../../platform/process/index.js';
import { type LockfileChange, lockfileChanges, parseNumstat, parseStatus } from './changes.js';
import { inferLockfiles } from './lockfiles.js';
import { makeProbeDir, removeProbeDir } from './probe-dir.js';

export interface ProbeRequest {
  /** Where probe directories are made (`<dataDir>/tmp/dep-update`). */
  root: string;
  gitUrl: string;
  branch: string;
  /** The command, already split into words. */
  argv: readonly string[];
  /** Explicit lockfile pathspecs; null = the lockfiles the clone tracks. */
  paths: readonly string[] | null;
  token: string | null;
  timeoutMs: number;
  signal: AbortSignal;
  /** Where PATH and LANG come from (default process.env); nothing else of it reaches the command. */
  parentEnv?: NodeJS.ProcessEnv;
  /**
   * The sandbox the command runs in (the clone, its HOME and TMPDIR read-write; nothing of the data
   * directory and no token; a network of its own). None: as it is.
   */
  sandbox?: AgentSandbox;
  /**
   * Where the sandboxed command's HTTP(S) may go (its package registry): the operator's and the
   * project's allowlist entries. Nothing else is reachable.
   */
  networkAllow?: readonly string[];
  /** What the command may consume (processes, memory, CPU): a fork bomb in a lockfile script stops there. */
  limits?: RunLimits;
}

export type ProbeOutcome =
  | { kind: 'changed'; changes: LockfileChange[] }
  | { kind: 'unchanged' }
  /** Nothing to watch: no explicit paths and no lockfile tracked. The command did not run. */
  | { kind: 'no_lockfiles' };

/** A probe that could not answer (clone, command or git failure); aborts are rethrown as they are. */
export class ProbeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProbeError';
  }
}

/** Bytes of the command's output kept (its tail) for the failure message. */
const OUTPUT_LIMIT = 16 * 1024;
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

export async function probeLockfiles(request: ProbeRequest): Promise<ProbeOutcome> {
  const dir = makeProbeDir(request.root);
  try {
    return await probeIn(dir, request);
  } finally {
    removeProbeDir(dir);
  }
}

async function probeIn(dir: string, request: ProbeRequest): Promise<ProbeOutcome> {
  const { signal } = request;
  const runner = new GitRunner({ home: join(dir, 'git-home') });
  const auth = request.token ? { token: request.token, url: request.gitUrl } : null;
  let clone: GitRepo;
  try {
    const target = {
      url: cloneUrl(request.gitUrl),
      dir: join(dir, 'repo'),
      branch: request.branch,
      depth: 1,
    };
    clone = await cloneRepo(runner, target, { signal, auth });
  } catch (error) {
    throw failure(signal, error, `the clone of ${request.branch} failed`);
  }
  // No credentials from here on: every later git call is local.
  const repo = openRepo(runner, clone.dir, { signal });
  const pathspecs = request.paths ?? (await trackedLockfiles(repo, signal));
  if (pathspecs.length === 0) return { kind: 'no_lockfiles' };
  await runProjectCommand(dir, repo.dir, request);
  const changes = await readChanges(repo, pathspecs, signal);
  return changes.length > 0 ? { kind: 'changed', changes } : { kind: 'unchanged' };
}

/** The environment the command gets: PATH, LANG, and a HOME and TMPDIR inside the probe directory. */
export function commandEnv(
  probeDir: string,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  return {
    PATH: parent.PATH || DEFAULT_PATH,
    HOME: join(probeDir, 'home'),
    LANG: parent.LANG || 'C.UTF-8',
    TMPDIR: join(probeDir, 'tmp'),
  };
}

/** A local path as a file:// URL (git then honours --depth and copies instead of hard-linking). */
export function cloneUrl(gitUrl: string): string {
  return gitUrl.startsWith('/') ? pathToFileURL(gitUrl).href : gitUrl;
}

async function trackedLockfiles(repo: GitRepo, signal: AbortSignal): Promise<string[]> {
  try {
    const out = await gitRaw(repo, ['ls-files', '-z']);
    const tracked = out.stdout.toString('utf8').split('\0').filter(Boolean);
    return inferLockfiles(tracked).map((path) => `:(literal)${path}`);
  } catch (error) {
    throw failure(signal, error, 'listing the files of the clone failed');
  }
}

async function runProjectCommand(dir: string, cwd: string, request: ProbeRequest): Promise<void> {
  const env = commandEnv(dir, request.parentEnv);
  mkdirSync(env.HOME!, { recursive: true });
  mkdirSync(env.TMPDIR!, { recursive: true });
  const blocked: EgressRefusal[] = [];
  const network = await request.sandbox?.openNetwork({
    allow: request.networkAllow ?? [],
    onRefusal: (refusal) => blocked.push(refusal),
  });
  const limits = request.limits ? await createRunCgroup(`dep-${randomUUID()}`, request.limits) : null;
  let exit: CommandResult;
  let breach: RunLimitBreach | null = null;
  try {
    const sandboxed = request.sandbox
      ? await request.sandbox.wrap(
          {
            workspace: cwd,
            home: env.HOME!,
            writable: [env.TMPDIR!],
            path: env.PATH,
            ...(network ? { network } : {}),
          },
          request.argv,
        )
      : [...request.argv];
    limits?.watch(() => undefined);
    exit = await runCommand(limits ? limits.launcher(sandboxed) : sandboxed, {
      cwd,
      env: { ...env, ...network?.env },
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      maxOutputBytes: OUTPUT_LIMIT,
    });
  } catch (error) {
    if (error instanceof CommandError && error.failure === 'timeout') {
      throw new ProbeError(
        `the command timed out after ${request.timeoutMs / 1000} s and was killed${blockedNote(blocked)}`,
      );
    }
    throw failure(request.signal, error, 'the command could not run');
  } finally {
    breach = limits?.breach() ?? null;
    await limits?.release();
    await network?.close();
  }
  if (breach) throw new ProbeError(`the command was ${breach.detail}`);
  if (exit.exitCode === 0) return;
  const how = exit.exitCode === null ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
  const said = lastLine(exit.stderr) || lastLine(exit.stdout);
  throw new ProbeError(`the command ${how}${said ? `: ${said}` : ''}${blockedNote(blocked)}`);
}

/** What the fence refused the command, for its failure message (a registry missing from the allowlist). */
function blockedNote(blocked: readonly EgressRefusal[]): string {
  if (blocked.length === 0) return '';
  const seen = [...new Set(blocked.map((refusal) => `${refusal.host}:${refusal.port} — ${refusal.reason}`))];
  return ` (blocked: ${seen.slice(0, 5).join('; ')}${seen.length > 5 ? '; …' : ''}; allow a registry on the project's Budget & Ops card)`;
}

async function readChanges(
  repo: GitRepo,
  pathspecs: readonly string[],
  signal: AbortSignal,
): Promise<LockfileChange[]> {
  try {
    const status = await gitRaw(repo, [
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      '--no-renames',
      '--',
      ...pathspecs,
    ]);
    const entries = parseStatus(status.stdout.toString('utf8'));
    if (entries.length === 0) return [];
    const numstat = await gitRaw(repo, [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      '--numstat',
      '-z',
      'HEAD',
      '--',
      ...pathspecs,
    ]);
    return lockfileChanges(entries, parseNumstat(numstat.stdout.toString('utf8')));
  } catch (error) {
    throw failure(signal, error, 'reading the lockfile changes failed');
  }
}

/** The error to throw: the abort itself when the cycle was aborted, else a ProbeError saying what failed. */
function failure(signal: AbortSignal, error: unknown, what: string): Error {
  if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new Error('aborted');
  const message = messageOf(error);
  return new ProbeError(`${what}: ${message}`);
}

function lastLine(text: string): string {
  const line =
    text
      .split('\n')
      .map((part) => part.trim())
      .filter(Boolean)
      .at(-1) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
