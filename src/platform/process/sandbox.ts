/**
 * The sandbox every program run over untrusted content goes in (an agent CLI and its tool server,
 * a dependency update command): `bubblewrap` (`bwrap`), the mechanism the agent CLIs' own sandboxes
 * use on Linux. This module is its one profile:
 * - new PID, IPC and UTS namespaces: the program sees its own processes only — not the server's
 *   `/proc/<pid>/environ`, not other agents' — and dies with the server (`--die-with-parent`);
 * - a new mount namespace holding only: the system directories read-only (`/usr` and its
 *   `/bin`, `/lib`… links, and the few files of `/etc` programs need to resolve names, verify TLS
 *   and know users), a private `/tmp`, a minimal `/dev`, a fresh `/proc`; the workspace
 *   read-write (also the working directory); a home of its own read-write (`$HOME`); and what the
 *   caller names read-only (git metadata, the CLI's install) or read-write (the run directory);
 * - every capability dropped (`--cap-drop ALL`), so root inside cannot remount its way out, and
 *   the skeleton the binds hang on read-only: only the workspace, the home, the run directory and
 *   `/tmp` take writes;
 * - a new network namespace: the program's loopback is its own, and nothing of the host's (its
 *   PostgreSQL, Redis, Gaffer's own port), of private ranges or of the internet is routable. What
 *   it may reach — the gateway, its model, the allowlist — Gaffer serves it through doors bound
 *   into the sandbox (run-network.ts).
 * Nothing else of the host exists inside: not the data directory (auth secret, database files,
 * other agents' worktrees), not the server's checkout or configuration, not the user's home.
 */
import { execFile } from 'node:child_process';
import { lstatSync, readlinkSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export interface SandboxPaths {
  /** Read-write and the working directory: the task's worktree (or the clone a command updates). */
  workspace: string;
  /** Read-write, and `$HOME` inside: the program's own home and configuration. */
  home: string;
  /** More read-write directories (the run's prompt and MCP configuration). */
  writable?: readonly string[];
  /** Read-only files or directories (git metadata, the CLI's and Gaffer's installs). */
  readable?: readonly string[];
  /**
   * Directories that must not be reachable inside (the data directory, the server's checkout):
   * a bind of one of them or of a directory holding one is refused. Binding a directory inside
   * one (the worktree under the data directory) is what a profile is for.
   */
  forbidden?: readonly string[];
  /**
   * Binding ports below 1024 on the sandbox's own loopback (CAP_NET_BIND_SERVICE, nothing else): for
   * a relay serving a local model server's port 80. The sandbox's network is its own, so this
   * reaches nothing of the host's.
   */
  lowPorts?: boolean;
}

/** Top-level system directories, bound read-only (or re-created as the links they are here). */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** What of `/etc` programs need: name resolution, users, TLS roots, the time zone, alternatives. */
const ETC_ENTRIES = [
  '/etc/alternatives',
  '/etc/ca-certificates',
  '/etc/ca-certificates.conf',
  '/etc/gai.conf',
  '/etc/group',
  '/etc/host.conf',
  '/etc/hosts',
  '/etc/localtime',
  '/etc/nsswitch.conf',
  '/etc/passwd',
  '/etc/pki',
  '/etc/resolv.conf',
  '/etc/ssl',
];

export class SandboxProfileError extends Error {
  override readonly name = 'SandboxProfileError';
}

/** `path` is `other` or lies under it. */
export function isWithin(path: string, other: string): boolean {
  const rel = relative(other, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function checked(paths: readonly string[], forbidden: readonly string[]): string[] {
  return paths.map((path) => {
    if (!isAbsolute(path)) throw new SandboxProfileError(`a sandbox path must be absolute (got "${path}")`);
    const absolute = resolve(path);
    if (absolute === '/') throw new SandboxProfileError('the sandbox cannot bind the whole file system');
    const exposed = forbidden.find((hidden) => isWithin(resolve(hidden), absolute));
    if (exposed) throw new SandboxProfileError(`binding ${absolute} would expose ${exposed} to the sandbox`);
    return absolute;
  });
}

/** The system part of the mount namespace, as it is on this host (merged /usr or not). */
function systemBinds(forbidden: readonly string[]): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    const found = lstatOrNull(dir);
    if (!found) continue;
    const exposed = forbidden.find((hidden) => isWithin(resolve(hidden), dir));
    if (exposed) throw new SandboxProfileError(`${exposed} is under ${dir}, which every sandbox reads`);
    if (found.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else args.push('--ro-bind', dir, dir);
  }
  for (const entry of ETC_ENTRIES) args.push('--ro-bind-try', entry, entry);
  return args;
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * The argv that runs `argv` inside the sandbox. Later binds lie over earlier ones, so the
 * workspace and the run's directories may sit under `/tmp` (private, empty) or under the data
 * directory (absent).
 */
export function sandboxArgv(paths: SandboxPaths, argv: readonly string[], bwrap = 'bwrap'): string[] {
  if (argv.length === 0) throw new SandboxProfileError('no program to run in the sandbox');
  const forbidden = paths.forbidden ?? [];
  const [workspace, home] = checked([paths.workspace, paths.home], forbidden) as [string, string];
  const writable = checked(paths.writable ?? [], forbidden);
  const readable = checked(paths.readable ?? [], forbidden);
  return [
    bwrap,
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-net',
    '--unshare-cgroup-try',
    '--cap-drop',
    'ALL',
    ...(paths.lowPorts ? ['--cap-add', 'CAP_NET_BIND_SERVICE'] : []),
    ...systemBinds(forbidden),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    ...readable.flatMap((path) => ['--ro-bind', path, path]),
    ...[home, ...writable, workspace].flatMap((path) => ['--bind', path, path]),
    // The skeleton bwrap builds the rest on is read-only once built: no file appears beside /etc's.
    '--remount-ro',
    '/',
    '--setenv',
    'HOME',
    home,
    '--chdir',
    workspace,
    '--',
    ...argv,
  ];
}

export type SandboxProbe = { ok: true } | { ok: false; reason: string };

/**
 * Whether a sandbox can be made here: `bwrap` runs a trivial program in the profile's namespaces.
 * The reason names what failed (no `bwrap`, no user or PID namespaces) when it cannot.
 */
export function probeSandbox(bwrap = 'bwrap'): Promise<SandboxProbe> {
  const argv = sandboxArgv({ workspace: '/tmp', home: '/tmp' }, ['true'], bwrap);
  return new Promise((done) => {
    execFile(argv[0]!, argv.slice(1), { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (!error) return done({ ok: true });
      const code = (error as NodeJS.ErrnoException).code;
      done({
        ok: false,
        reason:
          code === 'ENOENT'
            ? `${bwrap} is not installed (Debian/Ubuntu: apt-get install bubblewrap)`
            : `${bwrap} cannot create the sandbox here: ${String(stderr).trim() || error.message}`,
      });
    });
  });
}
