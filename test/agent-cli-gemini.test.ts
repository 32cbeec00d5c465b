/**
 * The real Gemini CLI (the pinned devDependency `@google/gemini-cli`) as Gaffer's agent: a real
 * `gaffer start` with `GAFFER_AGENT_PROVIDER=gemini`, the CLI on its PATH, `GEMINI_API_KEY` and
 * `GOOGLE_GEMINI_BASE_URL` pointing at a scripted model on loopback that speaks the Gemini API
 * (`:streamGenerateContent?alt=sse`). The dispatcher spawns the CLI through the built-in `gemini`
 * template, inside the agent sandbox. No model is routed, so none is passed: the CLI's own `auto`
 * routing asks its classifier model first (answered as the real one answers), then the main model,
 * which plays a developer's turn: it looks for the server's secret with the CLI's shell tool
 * (finding nothing), claims the task with a plan, writes a file with the CLI's `write_file`,
 * commits, opens the pull request and submits. The task reaches `awaiting_qa` with the file on its
 * branch, and the ledger holds the tokens of both models from the CLI's closing `result` line.
 * The same company then meets the two answers a provider gives a working CLI: a 401 (the run is
 * stopped at the CLI's first word of it, the CEO told once in those words, the agent held off) and
 * a 429 (the provider parked — RATE_LIMIT_HIT on /ws/system — and the agent's run waiting).
 * Last, the Models & agents page alone sends the CLI elsewhere: a `gemini` provider (its own server,
 * key and model) routed to one agent takes its next run there, whatever the server's environment says.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const NOTE = 'notes-gemini.md';

const bwrap = await probeSandbox();
if (!bwrap.ok) console.warn(`SKIPPED the Gemini CLI suite: ${bwrap.reason}`);

interface Part {
  text?: string;
  functionCall?: { id?: string; name: string };
  functionResponse?: { id?: string; name: string; response: unknown };
}
interface Content {
  role: string;
  parts: Part[];
}

/** Whether the request is the CLI's model router asking how complex the turn is (JSON out). */
const isClassifier = (request: RecordedRequest) =>
  (request.body.generationConfig as { responseMimeType?: string } | undefined)?.responseMimeType ===
  'application/json';

/**
 * The model's side of a developer's turn, read off each request: the first user turn names the
 * agent and the task and lists the workspace directory, the function calls so far which step is next.
 */
class ScriptedGeminiDeveloper {
  /** Each tool's response as the CLI reported it, in call order. */
  readonly results: { name: string; response: string }[] = [];
  /** The tools the CLI declared on the developer's last request. */
  tools: string[] = [];

  constructor(private readonly slug: string) {}

  answer(request: RecordedRequest): FakeReply | undefined {
    if (isClassifier(request)) {
      return {
        kind: 'reply',
        text: JSON.stringify({ complexity_reasoning: 'A small edit.', complexity_score: 10 }),
      };
    }
    const contents = (request.body.contents ?? []) as Content[];
    const everything = JSON.stringify(contents);
    if (!everything.includes(`You are ${this.slug},`))
      return { kind: 'reply', text: 'Nothing for me to do here.' };
    const taskId = /Your task: ([0-9a-f-]{36})/.exec(everything)?.[1];
    const workspace = /Workspace Directories:\*\*\\n {2}- ([^\\]+)\\n/.exec(everything)?.[1];
    if (!taskId || !workspace) return { kind: 'reply', text: 'I cannot read my task or directory.' };
    this.tools = ((request.body.tools ?? []) as { functionDeclarations?: { name: string }[] }[]).flatMap(
      (group) => (group.functionDeclarations ?? []).map((tool) => tool.name),
    );
    const calls = this.recordResults(contents);
    const gaffer = gafferCalls(taskId, NOTE, (tool) => `mcp_gaffer_${tool}`);
    const turn: ScriptedCall[] = [
      { name: 'run_shell_command', input: { command: ENVIRON_HUNT, description: 'Look around the machine' } },
      gaffer.claim,
      {
        name: 'write_file',
        input: { file_path: join(workspace, NOTE), content: '# Written by Gemini CLI\n' },
      },
      gaffer.commit,
      gaffer.openPr,
      gaffer.done,
    ];
    const next = turn[calls];
    if (!next) return { kind: 'reply', text: 'The note is committed and the task is submitted for QA.' };
    return { kind: 'reply', toolUses: [next], usage: { input_tokens: 1000 + calls, output_tokens: 50 } };
  }

  /** Records the responses of the calls made so far; answers how many calls there were. */
  private recordResults(contents: Content[]): number {
    const parts = contents.flatMap((content) => content.parts ?? []);
    this.results.length = 0;
    for (const part of parts) {
      if (part.functionResponse) {
        this.results.push({
          name: part.functionResponse.name,
          response: JSON.stringify(part.functionResponse.response),
        });
      }
    }
    return parts.filter((part) => part.functionCall).length;
  }

  result(name: string): string | undefined {
    return this.results.find((result) => result.name === name)?.response;
  }
}

describe.skipIf(!bwrap.ok)('the real Gemini CLI as a sandboxed developer', () => {
  let fake: FakeLlm;
  let cli: CliCompany;
  const developer = new ScriptedGeminiDeveloper('be-dev-1');
  const replies = new AgentReplies();

  beforeAll(async () => {
    fake = await startFakeLlm({ apiKey: 'test-key' });
    fake.converse(replies.wrap((request) => developer.answer(request)));
    cli = await startCliCompany('gemini', { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: fake.url });
  }, 90_000);

  afterAll(async () => {
    await cli?.close();
    await fake?.close();
  });

  it('claims, writes, commits, opens the PR and submits through its own tools and Gaffer’s', async () => {
    const { server } = cli;
    const mainBefore = await cli.remoteGit(['rev-parse', 'main']);
    const { taskId } = await giveNoteTask(cli, NOTE);
    const submitted = await awaitSubmitted(
      server,
      taskId,
      () => `the CLI's tool responses: ${JSON.stringify(developer.results)}`,
    );
    await eventually(async () => expect(developer.result('mcp_gaffer_i_am_done')).toBeDefined());

    // The hunt ran through the CLI's shell tool, in the sandbox, and found no process holding the secret.
    const hunt = developer.result('run_shell_command');
    expect(hunt, server.output()).toMatch(/hunted/);
    expect(hunt).not.toMatch(/FOUND/);
    expect(await cli.remoteGit(['rev-parse', 'main'])).toBe(mainBefore);

    // Gaffer's tools were offered under the CLI's MCP prefix, and each answered ok.
    expect(developer.tools).toEqual(expect.arrayContaining(['write_file', 'mcp_gaffer_i_will_work_on']));
    for (const tool of ['i_will_work_on', 'commit', 'open_pr', 'i_am_done']) {
      expect(developer.result(`mcp_gaffer_${tool}`), tool).toMatch(/\\"ok\\":true/);
    }
    const files = await cli.remoteGit(['ls-tree', '-r', '--name-only', submitted.branch_name]);
    expect(files.split('\n')).toContain(NOTE);
    expect(await cli.remoteGit(['show', `${submitted.branch_name}:${NOTE}`])).toBe('# Written by Gemini CLI');

    // No model was routed and none passed: the CLI chose its own, and the ledger holds the tokens of
    // each model it used (the classifier's and the main one's) as its result line reported them.
    const mainModel = /\/models\/([^:]+):streamGenerateContent/.exec(
      fake.requests.findLast((r) => !isClassifier(r) && r.wire === 'gemini')!.path,
    )![1]!;
    const rows = await eventually(async () => {
      const rows = await usageByModel(server);
      const main = rows.find((r) => r.key === mainModel);
      expect(main?.input_tokens, JSON.stringify(rows)).toBeGreaterThanOrEqual(6000); // six tool turns of 1000+
      return rows;
    });
    expect(rows.find((r) => r.key === mainModel)!.output_tokens).toBeGreaterThanOrEqual(300);
    expect(rows.some((r) => r.key !== mainModel && r.key.startsWith('gemini-') && r.input_tokens > 0)).toBe(
      true,
    );
  }, 180_000);

  it('stops a run whose key the provider refuses, tells the CEO once in its words, and holds the agent off', async () => {
    await expectRefusedKeyTold(cli, replies, 'be-dev-2', 'gemini');
  }, 150_000);

  it('parks the provider that answers 429 and holds the agent waiting', async () => {
    const { provider } = await expectParkedAndWaiting(cli, replies, 'fe-dev-1', 'frontend');
    expect(provider).toBe('gemini'); // no provider is routed: the CLI's kind is parked
  }, 150_000);

  it('runs on the provider, key and model the Models & agents page routes to the agent', async () => {
    const routed = await startFakeLlm({ apiKey: 'routed-key' });
    try {
      routed.converse(() => ({ kind: 'reply', text: 'Nothing for me to do here.' }));
      await created(cli.server, '/api/providers', {
        name: 'google',
        kind: 'gemini',
        base_url: routed.url,
        default_model: 'fake-small',
        api_key: 'routed-key',
      });
      const probe = await cli.server.asCeo('/api/providers/google/test', { method: 'POST' });
      expect(await probe.json()).toEqual({ ok: true, mode: 'models', model_count: 2, model_listed: true });
      const route = await cli.server.asCeo('/api/providers/routing', {
        method: 'PUT',
        body: { agents: { 'be-dev-1': { provider: 'google', model: 'fake-large' } } },
      });
      expect(route.status).toBe(200);

      await giveNoteTask(cli, 'routed.md', { assignee: 'be-dev-1' });
      const turns = await eventually(async () => {
        const found = routed.requests.filter((r) => JSON.stringify(r.body).includes('You are be-dev-1,'));
        expect(found.length, cli.server.output()).toBeGreaterThan(0);
        return found;
      }, 90_000);
      // The routed model was passed, so the CLI asked no classifier; the key is the route's.
      for (const turn of turns) {
        expect(turn.path).toBe('/v1beta/models/fake-large:streamGenerateContent');
        expect(turn.apiKey).toBe('routed-key');
      }
    } finally {
      await routed.close();
    }
  }, 150_000);
});
