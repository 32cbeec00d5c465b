/**
 * What `gaffer doctor` (and `GET /api/system/doctor`) looks at, one finding per thing: the runtime
 * in force, its sandbox and the limits its runs get, `git`, each agent CLI (found on the PATH or
 * not, its version against the one the suite runs for real, and whether the sandbox can show the
 * one the runtime starts: cli-sight.ts), and — on a running server — the stores and each
 * configured model provider. A finding that fails is something the configuration needs and does
 * not have: the report is then not ok (`gaffer doctor` exits 1).
 */
import {
  CommandError,
  findProgram,
  type RunLimitsState,
  runCommand,
  runLimitsWarnings,
} from '../../../platform/process/index.js';
import { cliSight, type SandboxView } from './cli-sight.js';

export type DoctorStatus = 'ok' | 'warn' | 'fail';

export interface DoctorFinding {
  area: 'runtime' | 'git' | 'agent_cli' | 'stores' | 'model_provider';
  name: string;
  status: DoctorStatus;
  detail: string;
  /** What to do about it (null when nothing is to be done). */
  remedy: string | null;
  /** The path to add to GAFFER_AGENT_SANDBOX_READ: the sandbox cannot bind this CLI's install by itself. */
  add_to_sandbox_read?: string;
}

export interface DoctorReport {
  ok: boolean;
  checked_at: string;
  findings: DoctorFinding[];
}

/** The agent CLIs the built-in templates start, with the version the suite runs them at (package.json). */
export const TESTED_AGENT_CLIS = {
  claude: { program: 'claude', npm: '@anthropic-ai/claude-code', version: '2.1.332' },
  codex: { program: 'codex', npm: '@openai/codex', version: '0.171.0' },
  gemini: { program: 'gemini', npm: '@google/gemini-cli', version: '0.61.0' },
} as const;

export function reportOf(findings: DoctorFinding[], now: Date): DoctorReport {
  return { ok: findings.every((f) => f.status !== 'fail'), checked_at: now.toISOString(), findings };
}

/** `<program> --version`: the version it prints, or null when it cannot be run. */
export async function versionOf(program: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    const defined = Object.fromEntries(
      Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const result = await runCommand([program, '--version'], {
      cwd: process.cwd(),
      env: defined,
      timeoutMs: 20_000,
      maxOutputBytes: 4096,
    });
    const printed = `${result.stdout}\n${result.stderr}`;
    return /\d+\.\d+\.\d+[\w.-]*/.exec(printed)?.[0] ?? (printed.trim().split('\n')[0] || 'unknown');
  } catch (error) {
    if (error instanceof CommandError) return null;
    throw error;
  }
}

export async function checkGit(env: NodeJS.ProcessEnv): Promise<DoctorFinding> {
  const version = await versionOf('git', env);
  return version
    ? { area: 'git', name: 'git', status: 'ok', detail: `git ${version}`, remedy: null }
    : {
        area: 'git',
        name: 'git',
        status: 'fail',
        detail: 'git is not on the PATH',
        remedy: 'Install git (apt-get install git): every workspace, commit and merge runs it.',
      };
}

/**
 * Each built-in agent CLI; the one the process runtime starts must be there, and — while the
 * sandbox is on — where the sandbox can show it.
 */
export async function checkAgentClis(
  runtime: { kind: string; provider: string },
  env: NodeJS.ProcessEnv,
  sandbox?: SandboxView | null,
): Promise<DoctorFinding[]> {
  return Promise.all(
    Object.entries(TESTED_AGENT_CLIS).map(async ([provider, cli]): Promise<DoctorFinding> => {
      const needed = runtime.kind === 'process' && runtime.provider === provider;
      const version = await versionOf(cli.program, env);
      const base = { area: 'agent_cli' as const, name: provider };
      if (!version) {
        return needed
          ? {
              ...base,
              status: 'fail',
              detail: `${cli.program} is not on the PATH, and GAFFER_AGENT_PROVIDER=${provider} starts it`,
              remedy: `npm i -g ${cli.npm}@${cli.version} (installed under a home, it is bound into the agent sandbox by itself)`,
            }
          : {
              ...base,
              status: 'ok',
              detail: `not installed (not used: the runtime starts ${runtime.provider})`,
              remedy: null,
            };
      }
      const sight = needed ? cliSight(cli.program, env.PATH, sandbox) : null;
      if (sight && !sight.ok) {
        return {
          ...base,
          status: 'fail',
          detail: `${cli.program} ${version}: ${sight.note}`,
          remedy: sight.remedy,
          add_to_sandbox_read: sight.add,
        };
      }
      const bound = sight?.note ? `; ${sight.note}` : '';
      if (version !== cli.version) {
        return {
          ...base,
          status: 'warn',
          detail: `${cli.program} ${version}; the built-in template is tested with ${cli.version}${bound}`,
          remedy: `npm i -g ${cli.npm}@${cli.version} if its runs fail on start (a changed flag is told as an alert)`,
        };
      }
      return {
        ...base,
        status: 'ok',
        detail: `${cli.program} ${version} (the tested version)${needed ? ', in use' : ''}${bound}`,
        remedy: null,
      };
    }),
  );
}

/**
 * The program of a configured template the runtime starts (GAFFER_AGENT_COMMAND_CUSTOM): on the
 * PATH, and where the sandbox can show it. Its version is not asked: a custom CLI may take no
 * `--version`.
 */
export function checkTemplateCli(
  provider: string,
  program: string,
  env: NodeJS.ProcessEnv,
  sandbox?: SandboxView | null,
): DoctorFinding {
  const base = { area: 'agent_cli' as const, name: provider };
  const found = findProgram(program, env.PATH);
  if (!found) {
    return {
      ...base,
      status: 'fail',
      detail: `${program} is not on the PATH, and the ${provider} template (GAFFER_AGENT_PROVIDER=${provider}) starts it`,
      remedy: `install ${program} on the server's PATH, or name it by its path in GAFFER_AGENT_COMMAND_CUSTOM`,
    };
  }
  const sight = cliSight(program, env.PATH, sandbox);
  if (sight && !sight.ok) {
    return {
      ...base,
      status: 'fail',
      detail: sight.note,
      remedy: sight.remedy,
      add_to_sandbox_read: sight.add,
    };
  }
  return {
    ...base,
    status: 'ok',
    detail: `${found} (the ${provider} template's program), in use${sight?.note ? `; ${sight.note}` : ''}`,
    remedy: null,
  };
}

const MECHANISM = { cgroup2: 'cgroup v2', cgroup1: 'cgroup v1', rlimits: 'rlimits' } as const;

/** The caps one agent run (or dependency-update command) gets: whole-run cgroups, or best-effort rlimits. */
export function checkRunLimits(state: RunLimitsState): DoctorFinding {
  const base = { area: 'runtime' as const, name: 'limits' };
  if (state.ready) {
    const caps = state.enforced.map((cap) => cap.replace('_', ' ')).join(', ');
    return {
      ...base,
      status: 'ok',
      detail: `runs limited by ${MECHANISM[state.mechanism]} (${caps})`,
      remedy: null,
    };
  }
  return {
    ...base,
    status: 'warn',
    detail: runLimitsWarnings(state)[0] ?? `runs limited by ${MECHANISM[state.mechanism]} only`,
    remedy:
      'run Gaffer as a systemd service with Delegate=yes (its cgroup v2 delegated to it), or as root on a cgroup v1 host: only then does one runaway run stay within its caps',
  };
}

/** The runtime in force and, for agent CLIs, whether their sandbox can be made. */
export function checkRuntime(
  runtime: { kind: string; provider: string },
  sandbox: { mode: string; warning: string | null },
): DoctorFinding {
  const base = { area: 'runtime' as const, name: runtime.kind };
  if (runtime.kind !== 'process') {
    return {
      ...base,
      status: 'ok',
      detail: `${runtime.kind} runtime: simulated agents, no model called`,
      remedy: null,
    };
  }
  const what = `process runtime starting ${runtime.provider}`;
  if (sandbox.warning) {
    return {
      ...base,
      status: sandbox.mode === 'on' ? 'fail' : 'warn',
      detail: `${what}: ${sandbox.warning}`,
      remedy:
        sandbox.mode === 'on'
          ? 'apt-get install bubblewrap (agents do not start without their sandbox)'
          : 'GAFFER_AGENT_SANDBOX=on once bubblewrap is installed',
    };
  }
  return { ...base, status: 'ok', detail: `${what}, sandboxed (bubblewrap)`, remedy: null };
}

/** The wire each built-in CLI speaks: a route to a provider of another kind gives it a key it never reads. */
const CLI_WIRES: Readonly<Record<string, string>> = {
  claude: 'anthropic',
  codex: 'openai',
  gemini: 'gemini',
};

/**
 * Routes the CLI the runtime starts cannot follow: a provider of a kind its wire is not (Claude
 * Code routed to an OpenAI-kind provider runs on the server's own keys, not the route's). One
 * failing finding per such route; none for a custom CLI, whose wire Gaffer does not know.
 */
export function checkRouteKinds(
  runtime: { kind: string; provider: string },
  routes: readonly { scope: string; subject: string; provider: { name: string; kind: string } }[],
): DoctorFinding[] {
  const wire = runtime.kind === 'process' ? CLI_WIRES[runtime.provider] : undefined;
  if (!wire) return [];
  return routes
    .filter((route) => route.provider.kind !== wire)
    .map((route) => {
      const where =
        route.scope === 'global' ? 'the global route' : `the ${route.scope} route ${route.subject}`;
      return {
        area: 'model_provider' as const,
        name: route.provider.name,
        status: 'fail' as const,
        detail: `${where} sends the ${runtime.provider} CLI to ${route.provider.name} (kind ${route.provider.kind}); it speaks only ${wire}`,
        remedy: `route a ${wire} provider there on Settings → Models & agents, or remove the route`,
      };
    });
}
