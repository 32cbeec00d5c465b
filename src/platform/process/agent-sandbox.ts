/**
 * Gaffer's use of the sandbox profile (sandbox.ts): what this installation binds into every
 * sandbox, what it keeps out, and whether a sandbox can be made here at all.
 * - Bound read-only besides the system: Gaffer's own install (`dist/` or `src/`, `node_modules/`,
 *   `package.json` — not the checkout around them), Node.js when it lives outside `/usr`, the
 *   operator's GAFFER_AGENT_SANDBOX_READ, and per run the install of the program it starts when
 *   that is elsewhere (a CLI under a home directory: cli-install.ts).
 * - Never bound: the data directory (auth secret, database files, mirrors, other agents'
 *   worktrees), Gaffer's checkout, the home of the user the server runs as.
 * - GAFFER_AGENT_SANDBOX=on (the default) and no sandbox possible: nothing runs (a 503 naming what
 *   to install). `off`: programs run as the server's user with everything it can reach, and every
 *   surface (the startup line, /health, the panel) says so.
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../http/errors.js';
import {
  type CliInstall,
  type CliRefused,
  installDirOf,
  isRefused,
  sandboxReadRemedy,
} from './cli-install.js';
import { ProcessStartError } from './group.js';
import { openRunNetwork, type RunNetwork, type RunNetworkOptions } from './run-network.js';
import {
  isWithin,
  probeSandbox,
  type SandboxPaths,
  type SandboxProbe,
  SandboxProfileError,
  SYSTEM_DIRS,
  sandboxArgv,
} from './sandbox.js';

export type SandboxMode = 'on' | 'off';

/** What every surface says while the sandbox is off. */
export const SANDBOX_OFF_WARNING =
  "GAFFER_AGENT_SANDBOX=off: agents run unsandboxed and can read the server's auth secret, its database files and every other agent's work";

export interface SandboxState {
  mode: SandboxMode;
  /** A sandbox can be made (always false while off). */
  ready: boolean;
  /** Why none can be made, while on. */
  reason: string | null;
  /** The warning to show, while off. */
  warning: string | null;
}

export interface AgentSandboxOptions {
  mode: SandboxMode;
  /** GAFFER_DATA_DIR: never reachable inside. */
  dataDir: string;
  /** GAFFER_AGENT_SANDBOX_READ: more read-only paths. */
  read?: readonly string[];
  /** The `bwrap` program (tests name a missing one). */
  bwrap?: string;
  /** The home of the user the server runs as (the process's own by default; tests name a fake one). */
  home?: string;
}

/** One program's view: its workspace and home read-write, and what else it needs. */
export interface SandboxRun {
  workspace: string;
  home: string;
  writable?: readonly string[];
  readable?: readonly string[];
  /** The PATH the program is looked up on (the environment it gets). */
  path: string | undefined;
  /** The run's network (openNetwork): its doors are bound in and served by the relay first. */
  network?: RunNetwork;
}

const probes = new Map<string, Promise<SandboxProbe>>();

/** One probe per `bwrap` per process: whether the host can make a sandbox does not change while it runs. */
function probeOnce(bwrap: string): Promise<SandboxProbe> {
  let probe = probes.get(bwrap);
  if (!probe) {
    probe = probeSandbox(bwrap);
    probes.set(bwrap, probe);
  }
  return probe;
}

const underSystem = (path: string) => SYSTEM_DIRS.some((dir) => isWithin(path, dir));

/** The package root of this Gaffer (the folder with its package.json) and the folder its code runs from. */
function gafferInstall(): { root: string; code: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  let root = here;
  while (!existsSync(join(root, 'package.json'))) {
    const up = dirname(root);
    if (up === root) return { root: here, code: here };
    root = up;
  }
  const top = relative(root, here).split(sep)[0] ?? '';
  return { root, code: join(root, top) };
}

export class AgentSandbox {
  readonly mode: SandboxMode;
  /** Read-only in every sandbox: the installs and the operator's paths. */
  readonly installs: readonly string[];
  /** Never reachable inside. */
  readonly forbidden: readonly string[];
  /** What each forbidden path is, for the refusals that name one. */
  private readonly labels: ReadonlyMap<string, string>;
  private readonly bwrap: string;

  constructor(private readonly options: AgentSandboxOptions) {
    this.mode = options.mode;
    this.bwrap = options.bwrap ?? 'bwrap';
    const { root, code } = gafferInstall();
    const node = dirname(dirname(realpathSync(process.execPath)));
    this.installs = [
      code,
      join(root, 'node_modules'),
      join(root, 'package.json'),
      ...(underSystem(node) ? [] : [node]),
      ...(options.read ?? []),
    ].filter((path) => existsSync(path));
    const home = options.home ?? homedir();
    const labelled: [string, string][] = [
      [resolve(options.dataDir), 'the data directory (GAFFER_DATA_DIR)'],
      ...(home && home !== '/' ? [[home, "the home of the server's user"] as [string, string]] : []),
      // A global install lives under /usr, which every sandbox reads; there is nothing of the server's in it.
      ...(underSystem(root) ? [] : [[root, "Gaffer's own checkout"] as [string, string]]),
    ];
    this.forbidden = labelled.map(([path]) => path);
    this.labels = new Map(labelled);
  }

  /** Where the sandbox stands (probing the host once per process). */
  async state(): Promise<SandboxState> {
    if (this.mode === 'off') return { mode: 'off', ready: false, reason: null, warning: SANDBOX_OFF_WARNING };
    const probe = await probeOnce(this.bwrap);
    return { mode: 'on', ready: probe.ok, reason: probe.ok ? null : probe.reason, warning: null };
  }

  /**
   * The network of one run while the sandbox is on (its own namespace, the doors of run-network.ts);
   * null while off, when programs share the server's network. Close it when the run has ended.
   */
  async openNetwork(options: RunNetworkOptions): Promise<RunNetwork | null> {
    return this.mode === 'on' ? openRunNetwork(options) : null;
  }

  /** The per-agent home under the data directory (bound as `$HOME`, and the CLIs' config homes). */
  homeOf(agentSlug: string): string {
    const safe = agentSlug.replace(/[^a-z0-9_-]/gi, '_').slice(0, 60) || 'agent';
    return join(this.options.dataDir, 'agent-homes', safe);
  }

  /**
   * How `program` (looked up on `path`) runs in every sandbox of this installation: what of its
   * install must be bound, and what to start it as; refused with the path to add by hand when its
   * install cannot be bound; null when it is not on the PATH.
   */
  cliInstall(program: string, path: string | undefined): CliInstall | null {
    return installDirOf(program, path, {
      forbidden: this.forbidden,
      visible: [...SYSTEM_DIRS, ...this.installs],
      labels: this.labels,
    });
  }

  /**
   * The argv that runs `argv` for this run: inside the sandbox while on (a 503 when none can be
   * made, a ProcessStartError when the program is not on the PATH, a 503 naming the path to add
   * to GAFFER_AGENT_SANDBOX_READ when its install cannot be bound), as it is while off.
   */
  async wrap(run: SandboxRun, argv: readonly string[]): Promise<string[]> {
    if (this.mode === 'off') return [...argv];
    const state = await this.state();
    if (!state.ready) {
      throw new AppError(
        503,
        'agent_sandbox_unavailable',
        `agents and repository commands run only in a sandbox, and none can be made here: ${state.reason}`,
        { mode: 'on' },
        "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and allow user namespaces; or set GAFFER_AGENT_SANDBOX=off, knowing that agents then can read the server's secrets",
      );
    }
    const readable = [...this.installs, ...(run.readable ?? []), ...(run.network ? [run.network.dir] : [])];
    const paths: SandboxPaths = {
      workspace: run.workspace,
      home: run.home,
      writable: run.writable ?? [],
      readable,
      forbidden: this.forbidden,
      lowPorts: run.network?.lowPorts ?? false,
    };
    const install = this.visibleInstall(argv[0] ?? '', run.path, paths);
    readable.push(...install.bind);
    const program = [install.argv0, ...argv.slice(1)];
    try {
      return sandboxArgv(paths, run.network ? run.network.wrap(program) : program, this.bwrap);
    } catch (error) {
      if (!(error instanceof SandboxProfileError)) throw error;
      throw new AppError(
        503,
        'agent_sandbox_refused',
        `the agent sandbox would not be one: ${error.message}`,
        { mode: 'on' },
        'name narrower directories in GAFFER_AGENT_SANDBOX_READ, and keep GAFFER_DATA_DIR out of the system directories',
      );
    }
  }

  /**
   * The program must be on the PATH, and its install inside what this run binds or bindable. One
   * in the run's own files (its worktree, its home, its run directory, the clone's git metadata)
   * is taken as it is: what the repository holds never chooses a bind.
   */
  private visibleInstall(program: string, path: string | undefined, paths: SandboxPaths) {
    const own = [
      ...(paths.readable ?? []).filter((p) => !this.installs.includes(p)),
      ...(paths.writable ?? []),
    ];
    const install = installDirOf(program, path, {
      forbidden: this.forbidden,
      labels: this.labels,
      visible: [...SYSTEM_DIRS, ...this.installs],
      untrusted: [paths.workspace, paths.home, ...own],
    });
    if (!install) throw ProcessStartError.notOnPath(program);
    if (isRefused(install)) throw cliOutsideSandbox(program, install);
    return install;
  }
}

/** The 503 of a program whose install the sandbox cannot bind, naming the one path to add by hand. */
export function cliOutsideSandbox(program: string, install: CliRefused): AppError {
  return new AppError(
    503,
    'agent_cli_outside_sandbox',
    install.refused,
    { program, path: install.real, add_to_sandbox_read: install.pathToAdd },
    sandboxReadRemedy(install.pathToAdd),
  );
}

/** What an operator must hear about the agents' sandbox: nothing while it works. */
export function sandboxWarnings(state: SandboxState): string[] {
  if (state.warning) return [state.warning];
  if (!state.ready) return [`agents cannot start: no sandbox can be made here (${state.reason})`];
  return [];
}

/** The sandbox of this configuration. */
export function agentSandbox(config: {
  agentSandbox: SandboxMode;
  dataDir: string;
  agentSandboxRead: readonly string[];
}): AgentSandbox {
  return new AgentSandbox({
    mode: config.agentSandbox,
    dataDir: config.dataDir,
    read: config.agentSandboxRead,
  });
}
