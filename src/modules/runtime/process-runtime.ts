/**
 * The `process` runtime: runs any agent CLI from its provider's command template. Per spawn it
 * writes the prompt and the MCP configuration into a private run directory, fills the template
 * into argv (no shell), builds the scrubbed environment with the agent's identity and token, and
 * starts the CLI in the task worktree as the leader of its own process group.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../platform/http/errors.js';
import type { ProviderKind } from '../../platform/llm/index.js';
import {
  type AgentSandbox,
  createRunCgroup,
  findProgram,
  ProcessStartError,
  type RunLimits,
  type RunLimitsHandle,
  type RunNetwork,
  startProcessGroup,
} from '../../platform/process/index.js';
import { agentEnvironment, MCP_ENV_NAMES } from './agent-env.js';
import { type PlaceholderValues, parseCommandTemplate, renderArgv, renderEnv } from './command-template.js';
import type { AgentRuntime, RunIo, RunningAgent, SpawnSpec } from './contract.js';
import { modelAllowEntries } from './model-endpoint.js';
import { ProcessRun } from './process-run.js';
import { type ProviderCommand, type ProviderSetting, resolveProviders } from './providers.js';
import { CLAUDE_TOOLS, CODEX_FEATURES, machineReachOf } from './role-reach.js';
import { defaultGafferCommand, mcpConfigDocument, mcpServerFor, writeRunFiles } from './run-files.js';

/** Grace between SIGTERM and SIGKILL when none is configured (GAFFER_KILL_GRACE_SECONDS). */
export const DEFAULT_KILL_GRACE_SECONDS = 10;

export interface ProcessRuntimeOptions {
  /** Provider templates replacing or adding to the built-ins (`claude`, `codex`, `gemini`). */
  providers?: Readonly<Record<string, ProviderSetting>>;
  /** How to run this Gaffer's CLI (the MCP server is `<it> agent-tools --role R`); see defaultGafferCommand. */
  gafferCommand?: readonly string[];
  /** Seconds between SIGTERM and SIGKILL on a graceful stop. */
  killGraceSeconds?: number;
  /** Parent directory of the per-run directories (system temp directory by default). */
  runRoot?: string;
  /** More variables of the server's environment to hand to every agent (names). */
  passEnv?: readonly string[];
  /** The server's environment to scrub (process.env by default). */
  serverEnv?: NodeJS.ProcessEnv;
  /** Largest output chunk, in characters. */
  chunkChars?: number;
  now?: () => Date;
  /** The routed model and credentials of an agent (the providers module's resolver), if any. */
  modelRoute?: ModelRouteResolver;
  /** Where agents run: inside this sandbox (as it is configured: on, or off and said so). None: as they are. */
  sandbox?: AgentSandbox;
  /** Where every sandboxed run may reach besides its model and gateway (GAFFER_AGENT_NETWORK_ALLOW). */
  networkAllow?: readonly string[];
  /** What one run may consume (processes, memory, CPU, wall time); none: unbounded. */
  limits?: RunLimits;
}

/** What an agent's model route gives its process: the provider, model and key. */
export interface AgentModelRoute {
  provider: string;
  kind: ProviderKind;
  model: string;
  baseUrl: string | null;
  apiKey: string | null;
}

export type ModelRouteResolver = (
  agent: { id: string; role: string },
  named?: { provider: string; model: string | null } | null,
) => Promise<AgentModelRoute | null>;

/** Where each kind's CLI reads its base URL and key (Claude Code, Codex's `env_key`, Gemini CLI). */
const ROUTE_ENV_NAMES: Readonly<Record<ProviderKind, { baseUrl: string; apiKey: string }>> = {
  openai: { baseUrl: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' },
  anthropic: { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' },
  gemini: { baseUrl: 'GOOGLE_GEMINI_BASE_URL', apiKey: 'GEMINI_API_KEY' },
};

/** The environment entries for a routed model: GAFFER_MODEL* and the key under the CLI's own name. */
export function modelRouteEnv(route: AgentModelRoute | null): Record<string, string> {
  if (!route) return {};
  const env: Record<string, string> = {
    GAFFER_MODEL: route.model,
    GAFFER_MODEL_PROVIDER: route.provider,
    GAFFER_MODEL_KIND: route.kind,
  };
  const names = ROUTE_ENV_NAMES[route.kind];
  if (route.baseUrl) {
    env.GAFFER_MODEL_BASE_URL = route.baseUrl;
    env[names.baseUrl] = route.baseUrl;
  }
  if (route.apiKey) env[names.apiKey] = route.apiKey;
  return env;
}

/** The agent's OpenAI-compatible base URL: its OpenAI-kind route's, the server's OPENAI_BASE_URL, OpenAI's. */
export function openAiBaseUrl(route: AgentModelRoute | null, serverEnv: NodeJS.ProcessEnv): string {
  if (route?.kind === 'openai' && route.baseUrl) return route.baseUrl;
  return serverEnv.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1';
}

export class ProcessRuntime implements AgentRuntime {
  readonly kind = 'process' as const;
  private readonly providers: Record<string, ProviderCommand>;

  constructor(private readonly options: ProcessRuntimeOptions = {}) {
    this.providers = resolveProviders(options.providers);
    const grace = options.killGraceSeconds ?? DEFAULT_KILL_GRACE_SECONDS;
    if (!(grace >= 0)) throw new RangeError(`killGraceSeconds must be 0 or more (got ${grace})`);
  }

  /** The provider names this runtime can start. */
  providerNames(): string[] {
    return Object.keys(this.providers).sort();
  }

  async spawn(spec: SpawnSpec, io: RunIo): Promise<RunningAgent> {
    const provider = this.providers[spec.provider.trim().toLowerCase()];
    if (!provider) {
      throw new AppError(422, 'unknown_provider', `no command template for provider "${spec.provider}"`, {
        known: this.providerNames(),
      });
    }
    await requireDirectory(spec.workspace);
    const words = parseCommandTemplate(provider.command);
    const gafferCommand = this.options.gafferCommand ?? defaultGafferCommand();
    const server = mcpServerFor(gafferCommand, spec.agent.role);
    let network: RunNetwork | null = null;
    let limits: RunLimitsHandle | null = null;
    const files = await writeRunFiles({
      root: this.options.runRoot,
      slug: spec.agent.slug,
      prompt: spec.prompt,
      mcpConfig: mcpConfigDocument(server),
      reach: machineReachOf(spec.agent.role),
    });
    const release = async () => {
      await limits?.release();
      await network?.close();
      await files.remove();
    };
    try {
      const route = (await this.options.modelRoute?.(spec.agent, spec.route ?? null)) ?? null;
      const values: PlaceholderValues = {
        prompt: spec.prompt,
        prompt_file: files.promptFile,
        mcp_config: files.mcpConfigFile,
        model: spec.model?.trim() ? spec.model.trim() : (route?.model ?? null),
        workspace: spec.workspace,
        run_dir: files.dir,
        agent_slug: spec.agent.slug,
        mcp_command: JSON.stringify(server?.command ?? ''),
        mcp_args: JSON.stringify(server?.args ?? []),
        mcp_env_vars: JSON.stringify(MCP_ENV_NAMES),
        claude_tools: CLAUDE_TOOLS[machineReachOf(spec.agent.role)],
        codex_features: CODEX_FEATURES[machineReachOf(spec.agent.role)],
        openai_base_url: openAiBaseUrl(route, this.options.serverEnv ?? process.env),
      };
      if (values.model && !spec.model?.trim()) io.routedModel?.(values.model);
      const env = agentEnvironment({
        spec,
        runId: io.runId,
        serverEnv: this.options.serverEnv ?? process.env,
        passEnv: [...(provider.passEnv ?? []), ...(this.options.passEnv ?? [])],
        extra: renderEnv(provider.env ?? {}, values),
        model: modelRouteEnv(route),
      });
      const sandbox = this.options.sandbox?.mode === 'on' ? this.options.sandbox : null;
      const command = renderArgv(words, values);
      let argv = command;
      if (sandbox) {
        const model = modelAllowEntries(
          spec.provider.trim().toLowerCase(),
          route?.baseUrl ?? null,
          env,
          values,
        );
        network = await sandbox.openNetwork({
          gateway: { url: spec.gatewayUrl, identity: gatewayIdentity(spec) },
          allow: [...model, ...(this.options.networkAllow ?? []), ...(spec.networkAllow ?? [])],
          onRefusal: (refusal) => io.blocked?.(refusal),
        });
        argv = await confined(sandbox, spec, files.dir, env, command, network);
      }
      if (this.options.limits) {
        // The launcher execs the program by name: say it is missing the way a failed spawn would.
        if (!sandbox && !findProgram(argv[0] ?? '', env.PATH))
          throw ProcessStartError.notOnPath(argv[0] ?? '');
        limits = await createRunCgroup(io.runId, this.options.limits);
        argv = limits.launcher(argv);
      }
      const startedAt = this.now();
      const child = await startProcessGroup(argv, { cwd: spec.workspace, env });
      return new ProcessRun({
        spec,
        io,
        child,
        startedAt,
        graceSeconds: this.options.killGraceSeconds ?? DEFAULT_KILL_GRACE_SECONDS,
        now: () => this.now(),
        cleanup: release,
        chunkChars: this.options.chunkChars,
        sandboxed: sandbox !== null,
        limits,
      });
    } catch (error) {
      await release();
      if (error instanceof ProcessStartError) {
        throw new AppError(
          503,
          'agent_cli_unavailable',
          error.message,
          { provider: spec.provider, program: error.program },
          `install ${error.program} on the server's PATH, or configure the ${spec.provider} command template`,
        );
      }
      throw error;
    }
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

/** The headers the run's gateway door sends as the agent (its token never enters the sandbox). */
function gatewayIdentity(spec: SpawnSpec): Record<string, string> {
  return {
    'x-agent-id': spec.agent.id,
    'x-agent-role': spec.agent.role,
    ...(spec.agent.team ? { 'x-agent-team': spec.agent.team } : {}),
    'x-agent-token': spec.token,
  };
}

/**
 * The argv in the sandbox: the worktree and the run directory read-write, the clone's git metadata
 * read-only, a home of the agent's own, which is also where the CLIs keep their configuration
 * (the server's own config homes are not reachable in there), and the run's network: the gateway
 * and the egress proxy served inside, the token left out (the gateway door adds it).
 */
async function confined(
  sandbox: AgentSandbox,
  spec: SpawnSpec,
  runDir: string,
  env: Record<string, string>,
  argv: string[],
  network: RunNetwork | null,
): Promise<string[]> {
  const home = sandbox.homeOf(spec.agent.slug);
  await mkdir(join(home, '.codex'), { recursive: true, mode: 0o700 });
  for (const name of Object.keys(env)) if (name.startsWith('XDG_')) delete env[name];
  Object.assign(env, {
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    ...network?.env,
  });
  // Set, and empty: MCP configurations that name the variable still expand it.
  if (network) env.GAFFER_AGENT_TOKEN = '';
  const readable = spec.gitDir ? [spec.gitDir] : [];
  return sandbox.wrap(
    {
      workspace: spec.workspace,
      home,
      writable: [runDir],
      readable,
      path: env.PATH,
      ...(network ? { network } : {}),
    },
    argv,
  );
}

async function requireDirectory(path: string): Promise<void> {
  const found = await stat(path).catch(() => null);
  if (!found?.isDirectory()) {
    throw new AppError(409, 'workspace_missing', `the agent's workspace ${path} is not a directory`);
  }
}
