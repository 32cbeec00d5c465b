/**
 * Least authority per CLI, proven with the real CLIs: each pinned agent CLI (Claude Code, Codex,
 * Gemini CLI) is started by the real process runtime through its built-in template, inside the
 * agent sandbox, once per machine reach (role-reach.ts) — a developer (edit), QA (run) and a cell PM
 * (read) — with its model routed to a scripted model on loopback. The tool list the CLI sends in its
 * first model request holds exactly the reach's built-in tools in the CLI's own names (the table
 * in docs/security.md) and the role's Gaffer tools: no sub-agents, web fetch or web search, no
 * schedulers or background tools, and no file-writing tool for QA or a shell for a PM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsFor } from '../src/agent-tools/catalogue.js';
import { rosterMember } from '../src/modules/agents/index.js';
import { gatewayRouteOf } from '../src/modules/lifecycle/index.js';
import type { RunningAgent, SpawnSpec } from '../src/modules/runtime/contract.js';
import { type AgentModelRoute, ProcessRuntime } from '../src/modules/runtime/process-runtime.js';
import type { MachineReach } from '../src/modules/runtime/role-reach.js';
import { AgentSandbox, probeSandbox } from '../src/platform/process/index.js';
import { CHECKOUT } from './support/agent-cli.js';
import { type FakeLlm, type RecordedRequest, startFakeLlm } from './support/fake-llm/index.js';
import { GAFFER_COMMAND } from './support/gaffer-cli.js';
import { eventually } from './support/replicas.js';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the CLI tool lists: ${bwrap.reason}`);

type Cli = 'claude' | 'codex' | 'gemini';

/** One agent of each reach. */
const AGENTS: Readonly<Record<MachineReach, string>> = { edit: 'be-dev-1', run: 'be-qa', read: 'be-pm' };

/**
 * The built-in tools each CLI offers each reach, in its own names (spelled out, not read from
 * role-reach.ts, so a change there shows here). Codex 0.171 reads and edits through its shell
 * (`exec_command`, `apply_patch` inside it); `view_image` is its one file reader, and it adds its
 * MCP resource readers whenever an MCP server is configured (Gaffer's has none).
 */
const CODEX_MCP_RESOURCES = ['list_mcp_resources', 'list_mcp_resource_templates', 'read_mcp_resource'];
const GEMINI_READ = ['read_file', 'list_directory', 'glob', 'grep_search'];
const OFFERED: Readonly<Record<Cli, Readonly<Record<MachineReach, readonly string[]>>>> = {
  claude: {
    edit: ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob'],
    run: ['Read', 'Bash', 'Grep', 'Glob'],
    read: ['Read', 'Grep', 'Glob'],
  },
  codex: {
    edit: ['exec_command', 'write_stdin', 'view_image', ...CODEX_MCP_RESOURCES],
    run: ['exec_command', 'write_stdin', 'view_image', ...CODEX_MCP_RESOURCES],
    read: ['view_image', ...CODEX_MCP_RESOURCES],
  },
  gemini: {
    edit: [...GEMINI_READ, 'write_file', 'replace', 'run_shell_command'],
    run: [...GEMINI_READ, 'run_shell_command'],
    read: GEMINI_READ,
  },
};

/** How each CLI names an MCP tool of the `gaffer` server. */
const GAFFER_PREFIX: Readonly<Record<Cli, string>> = {
  claude: 'mcp__gaffer__',
  codex: 'mcp__gaffer__',
  gemini: 'mcp_gaffer_',
};

type Tool = { type?: string; name?: string; tools?: Tool[]; functionDeclarations?: { name: string }[] };

/**
 * The tool names of a model request on each wire: Anthropic `tools[].name` (less Claude Code's
 * `DeferredToolPlaceholder`, which only keeps deferred loading on); Responses `tools[]`, a
 * namespace's tools as `<namespace>__<name>`, a hosted tool by its type (`web_search`), plus the
 * tools a model gets as an `additional_tools` input item; Gemini `tools[].functionDeclarations`.
 */
function toolNames(cli: Cli, body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as Tool[];
  if (cli === 'gemini')
    return tools.flatMap((group) => (group.functionDeclarations ?? []).map((t) => t.name));
  if (cli === 'claude')
    return tools.map((tool) => String(tool.name)).filter((n) => n !== 'DeferredToolPlaceholder');
  const extra = ((body.input ?? []) as { type?: string; tools?: Tool[] }[])
    .filter((item) => item.type === 'additional_tools')
    .flatMap((item) => item.tools ?? []);
  const named = (tool: Tool, prefix = ''): string[] =>
    tool.type === 'namespace'
      ? (tool.tools ?? []).flatMap((inner) => named(inner, `${tool.name}__`))
      : [`${prefix}${tool.name ?? tool.type}`];
  return [...tools, ...extra].flatMap((tool) => named(tool));
}

/** The role's Gaffer tools, named the CLI's way. */
function gafferTools(cli: Cli, slug: string): string[] {
  const route = gatewayRouteOf(rosterMember(slug).role);
  if (!route) throw new Error(`${slug} has no gateway route`);
  return toolsFor(route).map((tool) => `${GAFFER_PREFIX[cli]}${tool.name}`);
}

const sorted = (names: readonly string[]) => [...names].sort();

describe.skipIf(!bwrap.ok)('the tools each agent CLI offers its model, role by role', () => {
  let fake: FakeLlm;
  let dirs: string;

  beforeAll(async () => {
    fake = await startFakeLlm({ apiKey: 'test-key' });
    dirs = mkdtempSync(join(tmpdir(), 'gaffer-cli-tools-'));
  });
  afterAll(async () => {
    await fake?.close();
    if (dirs) rmSync(dirs, { recursive: true, force: true });
  });

  /** Each CLI's model route: Claude and Codex routed providers; Gemini CLI its environment (no route kind). */
  const routes: Readonly<Record<Cli, () => AgentModelRoute | null>> = {
    claude: () => ({
      provider: 'local',
      kind: 'anthropic',
      model: 'claude-sonnet-4-5',
      baseUrl: fake.url,
      apiKey: 'test-key',
    }),
    // A model Codex's built-in catalog does not list (see role-reach.ts on the ones it does).
    codex: () => ({
      provider: 'local',
      kind: 'openai',
      model: 'gpt-5',
      baseUrl: `${fake.url}/v1`,
      apiKey: 'test-key',
    }),
    gemini: () => null,
  };

  /**
   * Starts `cli` as agent `slug` through the runtime's built-in template, waits for its first model
   * request (the one carrying the agent's prompt), stops it, and answers that request and what the
   * CLI printed.
   */
  async function firstRequest(
    cli: Cli,
    slug: string,
  ): Promise<{ request: RecordedRequest; printed: string }> {
    const runtime = new ProcessRuntime({
      gafferCommand: GAFFER_COMMAND,
      runRoot: dirs,
      killGraceSeconds: 1,
      serverEnv: {
        PATH: `${join(CHECKOUT, 'node_modules/.bin')}:${process.env.PATH}`,
        LANG: 'C.UTF-8',
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: fake.url,
      },
      modelRoute: async () => routes[cli](),
      sandbox: new AgentSandbox({
        mode: 'on',
        dataDir: mkdtempSync(join(dirs, 'data-')),
        // The gaffer build the MCP server runs from (this runtime runs from the sources).
        read: [join(CHECKOUT, 'dist')],
      }),
      networkAllow: [],
    });
    const member = rosterMember(slug);
    const spec: SpawnSpec = {
      agent: { id: member.id, slug: member.slug, role: member.role, team: member.team },
      taskId: null,
      workspace: mkdtempSync(join(dirs, 'worktree-')),
      prompt: `You are ${slug}, list the tools you have.`,
      // Gemini CLI has no route (its base URL and key come from the environment): a model named
      // here makes its first request the main model's, not its router's classifier's.
      model: cli === 'gemini' ? 'gemini-2.5-pro' : null,
      provider: cli,
      // Nothing listens there: listing tools calls no verb (the relay serves this port in the sandbox).
      gatewayUrl: 'http://127.0.0.1:48420',
      token: `token-of-${slug}`,
    };
    let printed = '';
    const from = fake.requests.length;
    const run: RunningAgent = await runtime.spawn(spec, {
      runId: `run-${cli}-${slug}`,
      output: (_stream, text) => {
        printed += text;
      },
    });
    try {
      let ended: string | null = null;
      void run.exited.then((exit) => {
        ended = exit.detail;
      });
      const request = await eventually(async () => {
        const found = fake.requests
          .slice(from)
          .find((r) => r.method === 'POST' && JSON.stringify(r.body).includes(`You are ${slug},`));
        if (!found && ended !== null) return null;
        expect(found, `no model request of ${slug} yet; the CLI printed: ${printed}`).toBeDefined();
        return found!;
      }, 60_000);
      if (!request) throw new Error(`the CLI ended before asking its model (${ended}): ${printed}`);
      return { request, printed };
    } finally {
      await run.stop({ graceful: false });
    }
  }

  describe.each(['claude', 'codex', 'gemini'] as const)('%s', (cli) => {
    it.each(['edit', 'run', 'read'] as const)(
      'offers the %s reach its tools and Gaffer’s, nothing else',
      async (reach) => {
        const slug = AGENTS[reach];
        const { request, printed } = await firstRequest(cli, slug);
        const offered = toolNames(cli, request.body);
        const gaffer = offered.filter((name) => name.startsWith(GAFFER_PREFIX[cli]));
        const builtIn = offered.filter((name) => !name.startsWith(GAFFER_PREFIX[cli]));

        expect(sorted(builtIn), JSON.stringify(offered)).toEqual(sorted(OFFERED[cli][reach]));
        expect(sorted(gaffer), printed).toEqual(sorted(gafferTools(cli, slug)));
        // Codex names every `-c` setting it does not know; each of the template's is one it reads.
        if (cli === 'codex') expect(printed).not.toMatch(/unrecognized configuration setting/);
      },
      90_000,
    );
  });
});
