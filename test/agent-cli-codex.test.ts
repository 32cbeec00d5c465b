/**
 * The real Codex CLI (the pinned devDependency `@openai/codex`, a native binary) as Gaffer's agent:
 * a real `gaffer start` with `GAFFER_AGENT_PROVIDER=codex`, the CLI on its PATH, and a model
 * provider connected the way a CEO connects a local OpenAI-compatible server — a base URL, a key
 * and a model, routed to every agent. The dispatcher spawns Codex through the built-in `codex`
 * template, inside the agent sandbox; it reaches the scripted model on loopback over the Responses
 * API (SSE), which plays a developer's turn: it looks for the server's secret with Codex's shell
 * (finding nothing), claims the task with a plan, writes a file with Codex's own `apply_patch`,
 * commits, opens the pull request and submits. The task reaches `awaiting_qa` with the file on its
 * branch, and the ledger holds the run's tokens as Codex reported them, priced for the routed model.
 * The same company then meets the two answers a provider gives a working CLI: a 401 (the run is
 * stopped at the CLI's first word of it, the CEO told once in those words, the agent held off) and
 * a 429 (the provider parked — RATE_LIMIT_HIT on /ws/system — and the agent's run waiting).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costOf, DEFAULT_MODEL_PRICES, priceFor } from '../src/modules/usage/prices.js';
import { probeSandbox } from '../src/platform/process/index.js';
import {
  AgentReplies,
  awaitSubmitted,
  type CliCompany,
  created,
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
import { eventually } from './support/replicas.js';

const NOTE = 'notes-codex.md';
const MODEL = 'gpt-5';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the Codex suite: ${bwrap.reason}`);

type Item = Record<string, unknown>;

/** The text of a function_call_output as Codex sent it back (a string, or input_text parts). */
const outputText = (output: unknown): string =>
  typeof output === 'string'
    ? output
    : Array.isArray(output)
      ? output.map((part: { text?: string }) => part.text ?? JSON.stringify(part)).join('\n')
      : JSON.stringify(output ?? '');

/**
 * The model's side of a developer's turn, read off each Responses request: the user message names
 * the agent and the task, the environment context the working directory, the function calls and
 * their outputs so far which step comes next.
 */
class ScriptedCodexDeveloper {
  /** Each tool's output as Codex reported it, by the tool's name. */
  readonly results = new Map<string, string>();

  constructor(private readonly slug: string) {}

  answer(request: RecordedRequest): FakeReply | undefined {
    const input = (request.body.input ?? []) as Item[];
    const everything = JSON.stringify(input);
    if (!everything.includes(`You are ${this.slug},`))
      return { kind: 'reply', text: 'Nothing for me to do here.' };
    const taskId = /Your task: ([0-9a-f-]{36})/.exec(everything)?.[1];
    const workspace = /<cwd>([^<]+)<\/cwd>/.exec(everything)?.[1];
    if (!taskId || !workspace) return { kind: 'reply', text: 'I cannot read my task or directory.' };
    const calls = this.recordResults(input);
    const gaffer = gafferCalls(taskId, NOTE, (tool) => `mcp__gaffer__${tool}`);
    const turn: ScriptedCall[] = [
      { name: 'exec_command', input: { cmd: ENVIRON_HUNT } },
      gaffer.claim,
      {
        name: 'exec_command',
        input: {
          cmd: `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: ${NOTE}\n+# Written by Codex\n*** End Patch\nPATCH\n`,
          workdir: workspace,
        },
      },
      gaffer.commit,
      gaffer.openPr,
      gaffer.done,
    ];
    const next = turn[calls];
    if (!next) return { kind: 'reply', text: 'The note is committed and the task is submitted for QA.' };
    return {
      kind: 'reply',
      toolUses: [{ id: `call_${String(calls).padStart(2, '0')}`, ...next }],
      usage: { input_tokens: 1000 + calls, output_tokens: 50 },
    };
  }

  /** Records the outputs of the calls made so far; answers how many calls there were. */
  private recordResults(input: Item[]): number {
    const names = new Map<string, string>();
    for (const item of input) {
      if (item.type === 'function_call') {
        const name = item.namespace ? `${item.namespace}__${item.name}` : String(item.name);
        names.set(String(item.call_id), name);
      }
      if (item.type === 'function_call_output') {
        const name = names.get(String(item.call_id)) ?? String(item.call_id);
        this.results.set(`${name}#${item.call_id}`, outputText(item.output));
      }
    }
    return names.size;
  }

  /** The output of the call `name` (the `index`-th call of the turn). */
  result(name: string, index: number): string | undefined {
    return this.results.get(`${name}#call_${String(index).padStart(2, '0')}`);
  }
}

describe.skipIf(!bwrap.ok)('the real Codex CLI as a sandboxed developer', () => {
  let fake: FakeLlm;
  let cli: CliCompany;
  const developer = new ScriptedCodexDeveloper('be-dev-1');
  const replies = new AgentReplies();

  beforeAll(async () => {
    fake = await startFakeLlm({ apiKey: 'test-key' });
    fake.converse(
      replies.wrap((request) => (request.path === '/v1/responses' ? developer.answer(request) : undefined)),
    );
    // No OpenAI key or base URL in the server's environment: the connected provider brings both.
    cli = await startCliCompany('codex', {});
  }, 90_000);

  afterAll(async () => {
    await cli?.close();
    await fake?.close();
  });

  it('reaches the model through the connected provider, claims, patches, commits and submits', async () => {
    const { server } = cli;
    await created(server, '/api/providers', {
      name: 'local',
      kind: 'openai',
      base_url: `${fake.url}/v1`,
      default_model: MODEL,
      api_key: 'test-key',
    });
    const routed = await server.asCeo('/api/providers/routing', {
      method: 'PUT',
      body: { global: { provider: 'local' } },
    });
    expect(routed.status).toBe(200);
    const mainBefore = await cli.remoteGit(['rev-parse', 'main']);
    const { taskId } = await giveNoteTask(cli, NOTE);

    const submitted = await awaitSubmitted(
      server,
      taskId,
      () => `Codex's tool outputs: ${JSON.stringify([...developer.results])}`,
    );
    await eventually(async () => expect(developer.result('mcp__gaffer__i_am_done', 5)).toBeDefined());

    // The hunt ran through Codex's shell, in the sandbox, and found no process holding the secret.
    const hunt = developer.result('exec_command', 0);
    expect(hunt, server.output()).toMatch(/hunted/);
    expect(hunt).not.toMatch(/FOUND/);
    expect(await cli.remoteGit(['rev-parse', 'main'])).toBe(mainBefore);

    // Codex offered Gaffer's tools in their MCP namespace; each answered ok.
    const asked = fake.requests.filter((r) => r.path === '/v1/responses');
    const namespaces = (asked[0]!.body.tools as { type: string; name: string }[])
      .filter((tool) => tool.type === 'namespace')
      .map((tool) => tool.name);
    expect(namespaces).toContain('mcp__gaffer');
    for (const [index, tool] of [
      [1, 'i_will_work_on'],
      [3, 'commit'],
      [4, 'open_pr'],
      [5, 'i_am_done'],
    ] as const) {
      expect(developer.result(`mcp__gaffer__${tool}`, index), tool).toMatch(/"ok":\s*true/);
    }
    const files = await cli.remoteGit(['ls-tree', '-r', '--name-only', submitted.branch_name]);
    expect(files.split('\n')).toContain(NOTE);
    expect(await cli.remoteGit(['show', `${submitted.branch_name}:${NOTE}`])).toBe('# Written by Codex');

    // The route's model was passed, the route's key reached the provider, and no request left loopback.
    expect(new Set(asked.map((r) => String(r.body.model)))).toEqual(new Set([MODEL]));
    expect(asked.every((r) => r.apiKey === 'test-key')).toBe(true);

    // The ledger holds the tokens Codex reported on its turn.completed lines, priced for gpt-5.
    const row = await eventually(async () => {
      const row = (await usageByModel(server)).find((r) => r.key === MODEL);
      expect(row?.input_tokens, JSON.stringify(await usageByModel(server))).toBeGreaterThanOrEqual(6000); // six tool turns of 1000+ input tokens
      return row!;
    });
    expect(row.output_tokens).toBeGreaterThanOrEqual(300);
    const priced = costOf(
      { ...row, cache_read_tokens: 0, cache_write_tokens: 0 },
      priceFor(MODEL, DEFAULT_MODEL_PRICES),
    );
    expect(priced).toBeGreaterThan(0);
    expect(row.cost_usd).toBeCloseTo(priced, 6);
  }, 180_000);

  it('stops a run whose key the provider refuses, tells the CEO once in its words, and holds the agent off', async () => {
    await expectRefusedKeyTold(cli, replies, 'be-dev-2', 'codex');
  }, 150_000);

  it('parks the provider that answers 429 and holds the agent waiting', async () => {
    const { provider } = await expectParkedAndWaiting(cli, replies, 'fe-dev-1', 'frontend');
    expect(provider).toBe('local'); // the routed provider (the first test connected it)
  }, 150_000);
});
