/**
 * What the real-agent-CLI suites share: a company of one real `gaffer start` with a pinned CLI from
 * node_modules/.bin on its PATH, the dispatcher on and the agent sandbox on, a project on a seeded
 * bare remote, and a developer's task that the scripted model plays to `awaiting_qa`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { GitRunner, gitText, openRepo } from '../../src/platform/git/index.js';
import { seedBareRemote, tempDirs } from '../../src/platform/git/test-support.js';
import type { FakeReply, RecordedRequest } from './fake-llm/index.js';
import { eventually, type Replica, type Replicas, startReplicas } from './replicas.js';
import { createTestStores, type TestStores } from './stores.js';
import { openStream } from './ws-client.js';

export const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));
const CLI_BIN = join(CHECKOUT, 'node_modules/.bin');

/** The one-liner that found the server's environment before the sandbox (it prints what it finds). */
export const ENVIRON_HUNT =
  'for f in /proc/[0-9]*; do grep -aq GAFFER_AUTH_SECRET $f/environ 2>/dev/null && echo "FOUND $f"; done; echo hunted';

/** A tool call a scripted model makes. */
export interface ScriptedCall {
  name: string;
  input: Record<string, unknown>;
}

/**
 * The Gaffer tool calls of a developer's turn that writes `note` on task `taskId`, each named the
 * way the CLI names MCP tools (`mcp__gaffer__commit`, `mcp_gaffer_commit`, …).
 */
export function gafferCalls(taskId: string, note: string, nameOf: (tool: string) => string) {
  const call = (tool: string, input: Record<string, unknown>): ScriptedCall => ({
    name: nameOf(tool),
    input: { task_id: taskId, ...input },
  });
  return {
    claim: call('i_will_work_on', DEVELOPER_PLAN(note)),
    commit: call('commit', { message: `docs: add ${note}` }),
    openPr: call('open_pr', {}),
    done: call('i_am_done', { notes: `Wrote and committed ${note}; the pull request is open.` }),
  };
}

/** The developer's steps a scripted model plays, in order, with the note it writes. */
const DEVELOPER_PLAN = (note: string) => ({
  plan: `Add ${note} at the root of the task worktree with the CLI's own edit tool, commit it on the task branch, open the pull request and submit the task for QA review.`,
  steps: [
    { title: 'Write the note', description: `Write ${note} at the root of the worktree, one heading line.` },
    {
      title: 'Commit and submit',
      description: 'Commit with the commit tool, open the pull request, then i_am_done.',
    },
  ],
  technical_considerations: ['A scripted model: the change only proves the turn completes.'],
  risks: [{ risk: 'The change is trivial', mitigation: 'It proves the real CLI works with Gaffer.' }],
});

export interface CliCompany {
  readonly stores: TestStores;
  readonly company: Replicas;
  readonly server: Replica;
  /** The project's bare remote. */
  readonly remote: string;
  remoteGit(args: string[]): Promise<string>;
  close(): Promise<void>;
}

/** A real `gaffer start` running agent CLI `provider` in the sandbox, with `env` added. */
export async function startCliCompany(provider: string, env: Record<string, string>): Promise<CliCompany> {
  const dirs = tempDirs(`gaffer-${provider}-`);
  const git = new GitRunner({ home: join(dirs.make(), 'home') });
  const stores = await createTestStores();
  const remote = await seedBareRemote(git, join(dirs.make(), 'shop.git'), [
    { message: 'Initial commit', files: { 'README.md': '# Shop\n' } },
  ]);
  const company = await startReplicas(1, stores, {
    env: {
      PATH: `${CLI_BIN}:${process.env.PATH}`,
      GAFFER_AGENT_RUNTIME: 'process',
      GAFFER_AGENT_PROVIDER: provider,
      GAFFER_AGENT_SANDBOX: 'on',
      GAFFER_DISPATCH_ENABLED: 'true',
      GAFFER_DISPATCH_INTERVAL_SECONDS: '1',
      GAFFER_KILL_GRACE_SECONDS: '2',
      ...env,
    },
  });
  return {
    stores,
    company,
    server: company.replicas[0]!,
    remote,
    remoteGit: (args) => gitText(openRepo(git, remote), args),
    async close() {
      await company.close();
      await stores.dispose();
      dirs.cleanup();
    },
  };
}

/** POSTs as the CEO and expects 201. */
export async function created(server: Replica, path: string, body: object): Promise<{ id: string }> {
  const response = await server.asCeo(path, { body });
  const json = (await response.json()) as { id: string };
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}

/** The project `shop` on the remote (made on first use) and a task for `assignee` to add `note`. */
export async function giveNoteTask(
  cli: CliCompany,
  note: string,
  { assignee = 'be-dev-1', team = 'backend' }: { assignee?: string; team?: string } = {},
): Promise<{ taskId: string }> {
  const existing = await cli.server.asCeo('/api/projects/shop');
  const project =
    existing.status === 200
      ? ((await existing.json()) as { id: string })
      : await created(cli.server, '/api/projects', { slug: 'shop', name: 'Shop', git_url: cli.remote });
  const task = await created(cli.server, '/api/tasks', {
    title: 'Write a note',
    description: 'Add a short note to the repository.',
    acceptance_criteria: [`${note} exists`],
    team,
    task_type: 'code',
    nature: 'technical',
    complexity: 'low',
    project_id: project.id,
    assigned_to: assignee,
  });
  return { taskId: task.id };
}

/**
 * The scripted server's answer to every request of one agent, in place of the developer's turn
 * (a 401, a 429): `wrap` the developer's `answer` with it.
 */
export class AgentReplies {
  readonly #replies = new Map<string, FakeReply>();

  set(slug: string, reply: FakeReply): void {
    this.#replies.set(slug, reply);
  }

  wrap(answer: (request: RecordedRequest) => FakeReply | undefined) {
    return (request: RecordedRequest): FakeReply | undefined => {
      const body = JSON.stringify(request.body);
      for (const [slug, reply] of this.#replies) if (body.includes(`You are ${slug},`)) return reply;
      return answer(request);
    };
  }
}

/** The 401 each wire answers a refused key with. */
const REFUSED_KEY: FakeReply = {
  kind: 'error',
  status: 401,
  type: 'authentication_error',
  message: 'Incorrect API key provided.',
};

interface Notification {
  subject: string;
  body: string;
  related_task_id: string | null;
}

/** The CEO's "agent CLI fails as it starts" alerts. */
async function cliFailureAlerts(server: Replica): Promise<Notification[]> {
  const body = (await (await server.asCeo('/api/notifications?limit=100')).json()) as {
    notifications: Notification[];
  };
  return body.notifications.filter((n) => n.subject.includes('agent CLI fails as it starts'));
}

/**
 * Waits for the one alert the CEO gets about `slug`'s failing CLI, then checks the dispatcher
 * holds the agent off: three more passes (one a second) start nothing for it and tell nothing again.
 */
export async function expectToldOnceAndHeldOff(cli: CliCompany, slug: string): Promise<Notification> {
  const { server } = cli;
  const [alert] = await eventually(async () => {
    const found = (await cliFailureAlerts(server)).filter((n) => n.body.startsWith(`${slug}'s `));
    expect(found.length, server.output()).toBeGreaterThan(0);
    return found;
  }, 90_000);
  const agent = (await (await server.asCeo(`/api/agents/${slug}`)).json()) as { id: string };
  type Dispatcher = { passes: number; held_agents: { agent_id: string; until: string; why: string }[] };
  const dispatcher = async () =>
    (await (await server.asCeo('/api/orchestrator/dispatcher')).json()) as Dispatcher;
  const held = await eventually(async () => {
    const found = (await dispatcher()).held_agents.find((h) => h.agent_id === agent.id);
    expect(found?.why).toBe('spawn_failed');
    return found!;
  }, 10_000);
  expect(new Date(held.until).getTime() - Date.now()).toBeGreaterThan(15_000);
  const before = (await dispatcher()).passes;
  const told = (await cliFailureAlerts(server)).length;
  await eventually(
    async () => expect((await dispatcher()).passes).toBeGreaterThanOrEqual(before + 3),
    20_000,
  );
  const { runs } = (await (await server.asCeo(`/api/stream/${slug}`)).json()) as { runs: unknown[] };
  expect(runs).toHaveLength(1);
  expect(await cliFailureAlerts(server)).toHaveLength(told);
  return alert!;
}

/**
 * Gives `slug` a task while the scripted server answers its requests 401: its `provider` CLI's run
 * stops at the first word of it, the CEO is told once in the CLI's words, the agent is held off.
 */
export async function expectRefusedKeyTold(
  cli: CliCompany,
  replies: AgentReplies,
  slug: string,
  provider: string,
): Promise<Notification> {
  replies.set(slug, REFUSED_KEY);
  await giveNoteTask(cli, 'refused.md', { assignee: slug });
  const alert = await expectToldOnceAndHeldOff(cli, slug);
  expect(alert.subject).toBe(`The ${provider} agent CLI fails as it starts`);
  expect(alert.body).toContain(
    `${slug}'s ${provider} run failed on start: the model provider refused the credentials:`,
  );
  expect(alert.body).toContain('401');
  expect(alert.body).toContain('Settings → Models & agents');
  return alert;
}

/**
 * Gives `slug` a task while the scripted server answers its requests 429, and checks what a
 * rate-limited CLI brings about: RATE_LIMIT_HIT on a real /ws/system socket, the provider parked
 * (GET /api/system/rate-limits), the agent's run waiting.
 */
export async function expectParkedAndWaiting(
  cli: CliCompany,
  replies: AgentReplies,
  slug: string,
  team: string,
): Promise<{ provider: string }> {
  replies.set(slug, { kind: 'rate_limited', retryAfter: '120' });
  const { server } = cli;
  const outcome = await openStream(
    `${server.base.replace(/^http/, 'ws')}/ws/system`,
    undefined,
    cli.company.ceoHeaders,
  );
  if (outcome.kind !== 'open') throw new Error(`/ws/system refused: ${outcome.status}`);
  const system = outcome.client;
  try {
    await giveNoteTask(cli, `${slug}-waits.md`, { assignee: slug, team });
    const hit = await eventually(
      async () => {
        const frame = (await system.next(60_000)) as {
          type: string;
          provider: string;
          affected_agents: string[];
        };
        if (frame.type !== 'RATE_LIMIT_HIT') throw new Error(`passed over ${frame.type}`);
        return frame;
      },
      90_000,
      0,
    );
    expect(hit.affected_agents).toContain(slug);
    const { provider } = hit;
    const parked = (await (await server.asCeo('/api/system/rate-limits')).json()) as {
      entries: { provider: string; affected_agents: string[] }[];
    };
    const entry = parked.entries.find((e) => e.provider === provider);
    expect(entry?.affected_agents, JSON.stringify(parked)).toContain(slug);
    await eventually(async () => {
      const running = (await (await server.asCeo('/api/orchestrator/agents')).json()) as {
        agents: { agent_slug: string; waiting: unknown }[];
      };
      const run = running.agents.find((a) => a.agent_slug === slug);
      expect(run?.waiting, JSON.stringify(running)).toBeTruthy();
    }, 30_000);
    return { provider };
  } finally {
    system.close();
  }
}

/** Waits for the task to reach awaiting_qa; on timeout the error carries `details()`. */
export async function awaitSubmitted(
  server: Replica,
  taskId: string,
  details: () => string,
): Promise<{ branch_name: string }> {
  return eventually(
    async () => {
      const row = (await (await server.asCeo(`/api/tasks/${taskId}`)).json()) as {
        status: string;
        branch_name: string | null;
      };
      if (row.status !== 'awaiting_qa' || !row.branch_name) throw new Error(`task ${row.status}`);
      return { branch_name: row.branch_name };
    },
    120_000,
    250,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${details()}\n${server.output()}`);
  });
}

/** Rows of the usage ledger by model for the last day. */
export async function usageByModel(server: Replica) {
  const body = (await (await server.asCeo('/api/usage/by-model?period=24h')).json()) as {
    rows: { key: string; input_tokens: number; output_tokens: number; cost_usd: number }[];
  };
  return body.rows;
}
