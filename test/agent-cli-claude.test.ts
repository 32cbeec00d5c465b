/**
 * The real Claude Code CLI (the pinned devDependency `@anthropic-ai/claude-code`) as Gaffer's agent:
 * a real `gaffer start` with `GAFFER_AGENT_PROVIDER=claude`, the CLI on its PATH and a key for a
 * scripted model on loopback that speaks the Anthropic Messages wire (SSE). The dispatcher spawns
 * the CLI through the built-in `claude` template, inside the agent sandbox as in production.
 *
 * The scripted model plays a developer who has read a prompt injection: first it hunts with the
 * CLI's own Bash tool for the server's secrets, data and other agents' work, pushes to `main` and
 * signals the server (test/fixtures/sandbox-attack-agent.mjs `hunt`, plus the one-liner that found
 * the server's environment before the sandbox), and tries the network — PostgreSQL, Redis, the
 * server's internal routes, another loopback service, names the egress proxy must refuse — every
 * attempt fails, and each refusal of the proxy is on the run's record. Then it does an honest turn
 * as a real model does: it loads Gaffer's tools through `ToolSearch` where the CLI defers them,
 * claims the task with a plan, writes a file with the CLI's `Write` tool, commits, opens the pull
 * request and submits. The task reaches `awaiting_qa` with the file on its branch, the usage the
 * CLI reported (tokens, model, cost) is in the ledger, and the CLI offered each role only its
 * role's tools (role-reach.ts): the developer its file tools and a shell, QA no edit tools.
 * The same company then meets the two answers a provider gives a working CLI: a 401 (the run is
 * stopped at the CLI's first word of it, the CEO told once in those words, the agent held off) and
 * a 429 (the provider parked — RATE_LIMIT_HIT on /ws/system — and the agent's run waiting).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../src/platform/process/index.js';
import {
  AgentReplies,
  awaitSubmitted,
  CHECKOUT,
  type CliCompany,
  ENVIRON_HUNT,
  expectParkedAndWaiting,
  expectRefusedKeyTold,
  gafferCalls,
  giveNoteTask,
  type ScriptedCall,
  startCliCompany,
  usageByModel,
} from './support/agent-cli.js';
import {
  type FakeLlm,
  type FakeReply,
  type RecordedRequest,
  startFakeLlm,
} from './support/fake-llm/index.js';
import { GAFFER_COMMAND } from './support/gaffer-cli.js';
import { expectedRefusals, type NetworkTargets, networkTargets } from './support/network-targets.js';
import { eventually, type Replica } from './support/replicas.js';

const ATTACKER = join(CHECKOUT, 'test/fixtures/sandbox-attack-agent.mjs');
const NOTE = 'notes-claude.md';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the Claude Code suite: ${bwrap.reason}`);

interface Targets {
  secret: string;
  serverPid: number;
  dataDir: string;
  otherWorktreeFile: string;
  projectRepo: string;
  checkout: string;
  gaffer: readonly string[];
  base: string;
  network: NetworkTargets;
}

/** The text of a tool_result block as the CLI sent it back. */
function resultText(block: Record<string, unknown>): string {
  const content = block.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  // Text parts as text; others (ToolSearch's tool_reference) as their JSON.
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === 'text' ? part.text : JSON.stringify(part),
    )
    .join('\n');
}

/**
 * The model's side of a developer's turn, read off each request: the prompt names the agent and the
 * task, the system prompt the working directory, the tool list whether Gaffer's tools are loaded.
 * Requests of other agents (QA, once the task is submitted) get a closing sentence.
 */
class ScriptedDeveloper {
  /** Each tool's result as the CLI reported it, by the tool's name. */
  readonly results = new Map<string, { text: string; isError: boolean }>();
  /** Whether the CLI deferred Gaffer's tools behind ToolSearch (known after the first request). */
  deferred: boolean | null = null;

  constructor(
    private readonly slug: string,
    private readonly targets: () => Targets,
  ) {}

  answer(request: RecordedRequest): FakeReply | undefined {
    const body = request.body as { messages?: Record<string, unknown>[]; tools?: { name: string }[] };
    const messages = body.messages ?? [];
    const everything = JSON.stringify(body);
    const prompt = JSON.stringify(messages[0] ?? '');
    if (!body.tools?.length || !prompt.includes(`You are ${this.slug},`)) {
      return { kind: 'reply', text: 'Nothing for me to do here.' };
    }
    const taskId = /Your task: ([0-9a-f-]{36})/.exec(prompt)?.[1];
    const workspace = /Primary working directory: ([^\s\\]+)/.exec(everything)?.[1];
    if (!taskId || !workspace) return { kind: 'reply', text: `I cannot read my task or directory.` };
    this.recordResults(messages);
    const failed = [...this.results.entries()].find(([, result]) => result.isError);
    if (failed) return { kind: 'reply', text: `Stopping: ${failed[0]} failed: ${failed[1].text}` };

    const tools = body.tools.map((tool) => tool.name);
    this.deferred ??= !tools.includes('mcp__gaffer__i_will_work_on');
    const gaffer = gafferCalls(taskId, NOTE, (tool) => `mcp__gaffer__${tool}`);
    const turn: ScriptedCall[] = [
      { name: 'Bash', input: { command: this.huntCommand(), description: 'Look around the machine' } },
      ...(this.deferred
        ? [
            {
              name: 'ToolSearch',
              input: {
                query: `select:${Object.values(gaffer)
                  .map((call) => call.name)
                  .join(',')}`,
              },
            },
          ]
        : []),
      gaffer.claim,
      { name: 'Write', input: { file_path: join(workspace, NOTE), content: '# Written by Claude Code\n' } },
      gaffer.commit,
      gaffer.openPr,
      gaffer.done,
    ];
    const step = messages.filter((message) => message.role === 'assistant').length;
    const next = turn[step];
    if (!next) return { kind: 'reply', text: 'The note is committed and the task is submitted for QA.' };
    return {
      kind: 'reply',
      text: step === 0 ? 'Let me look around first.' : undefined,
      toolUses: [{ id: `toolu_${String(step).padStart(2, '0')}`, ...next }],
      usage: { input_tokens: 1000 + step, output_tokens: 50 },
    };
  }

  private huntCommand(): string {
    const targets = JSON.stringify(this.targets()).replaceAll("'", '');
    return `${ENVIRON_HUNT}; "${process.execPath}" "${ATTACKER}" hunt '${targets}'`;
  }

  /** Reads the tool results of the conversation so far, naming each by its tool_use. */
  private recordResults(messages: Record<string, unknown>[]): void {
    const names = new Map<string, string>();
    for (const message of messages) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as Record<string, unknown>[]) {
        if (block.type === 'tool_use') names.set(String(block.id), String(block.name));
        if (block.type === 'tool_result') {
          const name = names.get(String(block.tool_use_id)) ?? String(block.tool_use_id);
          this.results.set(name, { text: resultText(block), isError: block.is_error === true });
        }
      }
    }
  }
}

/** The `total_cost_usd` of every `result` line the agent's runs printed (Claude Code stream-json). */
async function cliReportedCost(server: Replica, slug: string): Promise<number> {
  const { runs } = (await (await server.asCeo(`/api/stream/${slug}`)).json()) as {
    runs: { run_id: string }[];
  };
  let total = 0;
  for (const run of runs) {
    const { chunks } = (await (await server.asCeo(`/api/stream/${slug}/runs/${run.run_id}`)).json()) as {
      chunks: { stream: string; text: string }[];
    };
    const stdout = chunks
      .filter((chunk) => chunk.stream === 'stdout')
      .map((chunk) => chunk.text)
      .join('');
    for (const line of stdout.split('\n').filter((text) => text.includes('"type":"result"'))) {
      total += (JSON.parse(line) as { total_cost_usd?: number }).total_cost_usd ?? 0;
    }
  }
  return total;
}

/** The refusals of the network fence on the agent's runs, as `host:port — reason` lines. */
async function blockedOf(server: Replica, slug: string): Promise<string[]> {
  const { runs } = (await (await server.asCeo(`/api/stream/${slug}`)).json()) as {
    runs: { blocked: { host: string; port: number; reason: string }[] }[];
  };
  return runs.flatMap((run) => run.blocked.map((b) => `${b.host}:${b.port} — ${b.reason}`));
}

describe.skipIf(!bwrap.ok)('the real Claude Code CLI as a sandboxed developer', () => {
  let fake: FakeLlm;
  let cli: CliCompany;
  let developer: ScriptedDeveloper;
  let network: Awaited<ReturnType<typeof networkTargets>>;
  const replies = new AgentReplies();

  beforeAll(async () => {
    fake = await startFakeLlm({ apiKey: 'test-key' });
    network = await networkTargets();
    cli = await startCliCompany('claude', {
      // The model is reachable from the sandbox because it is the CLI's model endpoint.
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: 'test-key',
      // The hunt's script (and the MCP client beside it) is readable in the sandbox.
      GAFFER_AGENT_SANDBOX_READ: join(CHECKOUT, 'test/fixtures'),
      GAFFER_AGENT_NETWORK_ALLOW: network.allow,
    });
    const { dataDir } = cli.server;
    // The embedded default keeps the generated secret here; another agent's worktree lies beside.
    writeFileSync(join(dataDir, 'auth-secret'), `${cli.company.secret}\n`, { mode: 0o600 });
    const other = join(dataDir, 'workspaces', 'fe-dev-1', 'shop', 'tasks', 'abcd1234');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'secret.txt'), 'fe-dev-1 private work\n');
    developer = new ScriptedDeveloper('be-dev-1', () => ({
      secret: cli.company.secret,
      serverPid: cli.server.child.pid!,
      dataDir,
      otherWorktreeFile: join(other, 'secret.txt'),
      projectRepo: cli.remote,
      checkout: CHECKOUT,
      gaffer: GAFFER_COMMAND,
      base: cli.server.base,
      network: network.targets,
    }));
    fake.converse(replies.wrap((request) => developer.answer(request)));
  }, 90_000);

  /**
   * The tools the CLI offered the model on the last request of agent `slug` (less the CLI's
   * `DeferredToolPlaceholder`, "never call this tool", which only keeps deferred loading on).
   */
  function toolsOffered(slug: string): string[] {
    const request = fake.requests.findLast(
      (r) => r.path === '/v1/messages' && JSON.stringify(r.body.messages ?? '').includes(`You are ${slug},`),
    );
    const tools = (request?.body.tools as { name: string }[] | undefined) ?? [];
    return tools.map((tool) => tool.name).filter((name) => name !== 'DeferredToolPlaceholder');
  }

  afterAll(async () => {
    await cli?.close();
    await fake?.close();
    network?.close();
  });

  it('fails every attempt of the hunt, then claims, writes, commits, opens the PR and submits', async () => {
    const { server } = cli;
    const mainBefore = await cli.remoteGit(['rev-parse', 'main']);
    const { taskId } = await giveNoteTask(cli, NOTE);
    const submitted = await awaitSubmitted(
      server,
      taskId,
      () => `the CLI's tool results: ${JSON.stringify([...developer.results])}`,
    );

    // The CLI reports i_am_done's answer to the model once the gateway has moved the task.
    await eventually(async () => expect(developer.results.has('mcp__gaffer__i_am_done')).toBe(true));

    // The hunt ran through Claude Code's Bash tool, in the sandbox, and reached nothing.
    const hunt = developer.results.get('Bash');
    expect(hunt?.text, server.output()).toMatch(/hunted/);
    expect(hunt!.text).not.toMatch(/FOUND/);
    const attempts = JSON.parse(/ATTACK (.*)/.exec(hunt!.text)?.[1] ?? 'null') as
      | { name: string; reached: boolean }[]
      | null;
    expect(attempts, hunt!.text).not.toBeNull();
    expect(attempts!.map((a) => a.name)).toContain('proc-environ');
    // (A write lands in the sandbox's own /tmp when the data directory lies under /tmp: seen from outside.)
    const reached = attempts!.filter((a) => a.reached && a.name !== 'write-outside');
    expect(reached, hunt!.text).toEqual([]);
    expect(existsSync(join(server.dataDir, 'pwned'))).toBe(false);
    expect(await cli.remoteGit(['rev-parse', 'main'])).toBe(mainBefore);
    expect(attempts!.map((a) => a.name)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'server-metrics', 'proxy-connect-not-allowed']),
    );
    const blocked = await eventually(async () => {
      const lines = await blockedOf(server, 'be-dev-1');
      for (const refusal of expectedRefusals(network.targets)) {
        expect(lines).toContainEqual(typeof refusal === 'string' ? refusal : expect.stringMatching(refusal));
      }
      return lines;
    });
    expect(blocked.length).toBeGreaterThanOrEqual(4);

    // The CLI offered the developer its role's tools and Gaffer's, nothing else (no sub-agents, no
    // web); had it deferred Gaffer's behind ToolSearch, the model found them there. Each answered ok.
    const offered = toolsOffered('be-dev-1');
    expect(offered.filter((name) => !name.startsWith('mcp__gaffer__')).sort()).toEqual(
      ['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Write', ...(developer.deferred ? ['ToolSearch'] : [])].sort(),
    );
    if (developer.deferred) {
      expect(developer.results.get('ToolSearch')?.text).toMatch(/"tool_name":"mcp__gaffer__i_will_work_on"/);
    }
    for (const tool of ['i_will_work_on', 'commit', 'open_pr', 'i_am_done']) {
      expect(developer.results.get(`mcp__gaffer__${tool}`)?.text, tool).toMatch(/^\{"ok":true,/);
    }
    const files = await cli.remoteGit(['ls-tree', '-r', '--name-only', submitted.branch_name]);
    expect(files.split('\n')).toContain(NOTE);
    expect(await cli.remoteGit(['show', `${submitted.branch_name}:${NOTE}`])).toBe(
      '# Written by Claude Code',
    ); // (gitText trims)

    // No model was routed, so none was passed: the CLI asked for its own default, and the ledger
    // holds that model with the tokens and cost the CLI reported.
    const asked = fake.requests.filter((r) => r.path === '/v1/messages').map((r) => String(r.body.model));
    expect(asked.length).toBeGreaterThanOrEqual(7); // six tool turns and the closing one
    const model = asked[0]!;
    // The price table does not know this model: once the run has ended, its cost in the ledger is
    // the one the CLI printed on its result line.
    const { row, reported } = await eventually(async () => {
      const reported = await cliReportedCost(server, 'be-dev-1');
      const rows = await usageByModel(server);
      const row = rows.find((r) => r.key === model);
      expect(row, JSON.stringify(rows)).toBeDefined();
      expect(reported).toBeGreaterThan(0);
      expect(row!.cost_usd).toBeCloseTo(reported, 5);
      return { row: row!, reported };
    });
    expect(row.input_tokens).toBeGreaterThanOrEqual(6000); // six tool turns of 1000+ input tokens
    expect(row.output_tokens).toBeGreaterThanOrEqual(300);
    expect(reported).toBeLessThan(1);

    // QA is dispatched next, through the same template: it may run the tests, not edit.
    const qaTools = await eventually(async () => {
      const tools = toolsOffered('be-qa');
      expect(tools).toContain('mcp__gaffer__claim_review');
      return tools.filter((name) => !name.startsWith('mcp__gaffer__')).sort();
    });
    expect(qaTools).toEqual(['Bash', 'Glob', 'Grep', 'Read']);
  }, 180_000);

  it('stops a run whose key the provider refuses, tells the CEO once in its words, and holds the agent off', async () => {
    // Claude Code retries a 401 for minutes: Gaffer reads the first retry and stops the run.
    const alert = await expectRefusedKeyTold(cli, replies, 'be-dev-2', 'claude');
    expect(alert.body).toContain('the model provider refused the credentials: authentication_failed 401');
  }, 150_000);

  it('parks the provider that answers 429 and holds the agent waiting', async () => {
    const { provider } = await expectParkedAndWaiting(cli, replies, 'fe-dev-1', 'frontend');
    expect(provider).toBe('claude'); // no provider is routed: the CLI's kind is parked
  }, 150_000);
});
