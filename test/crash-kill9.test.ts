/**
 * Crash safety: a real `gaffer start` is killed with SIGKILL in the middle of work and started
 * again on the same data — the embedded PGlite directory by default, a PostgreSQL database with
 * GAFFER_TEST_DATABASE_URL. Every write that was acknowledged is there after the restart, exactly
 * once, and the server takes new work at once:
 *   - task writes under load (concurrent POST /api/tasks, killed mid-way);
 *   - a gateway verb under load (concurrent `dm` tool calls of six agents, killed mid-way): every
 *     acknowledged message is in its conversation exactly once.
 * (The release executor's per-step resume after a kill is engines-release-restart.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { taskBody } from '../src/modules/tasks/test-fixtures.js';
import { type Replica, type Replicas, startReplicas } from './support/replicas.js';
import { createTestStores, type TestStores } from './support/stores.js';

const store = process.env.GAFFER_TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';

describe(`SIGKILL mid-write, then restart on the same data (${store})`, () => {
  let stores: TestStores;
  let cluster: Replicas;
  let server: Replica;
  let projectId: string;

  beforeAll(async () => {
    stores = await createTestStores();
    cluster = await startReplicas(1, stores);
    server = cluster.replicas[0]!;
    const project = await server.asCeo('/api/projects', {
      body: { slug: 'drill', name: 'Drill', git_url: 'https://github.com/acme/drill.git' },
    });
    expect(project.status).toBe(201);
    projectId = ((await project.json()) as { id: string }).id;
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
    await stores?.dispose();
  }, 60_000);

  /** Every task title in the database (all pages). */
  async function allTitles(): Promise<string[]> {
    const titles: string[] = [];
    for (let cursor: string | null = null; ; ) {
      const response = await server.asCeo(`/api/tasks?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { tasks: { title: string }[]; next_cursor: string | null };
      titles.push(...page.tasks.map((task) => task.title));
      if (!page.next_cursor) return titles;
      cursor = encodeURIComponent(page.next_cursor);
    }
  }

  it('keeps every acknowledged task, exactly once, when killed under concurrent task writes', async () => {
    const total = 400;
    const concurrency = 16;
    const killAfter = 60;
    const acknowledged = new Map<string, string>(); // title → id
    let next = 0;
    let killing: Promise<void> | undefined;
    const worker = async () => {
      while (next < total) {
        const title = `Crash drill task ${next++}`;
        const response = await server
          .asCeo('/api/tasks', { body: taskBody({ title, assigned_to: 'be-dev-1', project_id: projectId }) })
          .catch(() => undefined); // the connection died with the server: not acknowledged
        if (response?.status === 201) {
          acknowledged.set(title, ((await response.json()) as { id: string }).id);
          if (acknowledged.size === killAfter) killing ??= server.kill();
        } else if (response) {
          await response.body?.cancel();
        }
        if (killing) return;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    await killing;
    expect(acknowledged.size).toBeGreaterThanOrEqual(killAfter);
    expect(acknowledged.size).toBeLessThan(total);

    await server.restart();
    const titles = await allTitles();
    const counts = new Map<string, number>();
    for (const title of titles) counts.set(title, (counts.get(title) ?? 0) + 1);
    const missing = [...acknowledged.keys()].filter((title) => !counts.has(title));
    const doubled = [...counts].filter(([, count]) => count > 1).map(([title]) => title);
    expect(missing).toEqual([]);
    expect(doubled).toEqual([]);
    for (const [title, id] of [...acknowledged].slice(0, 5)) {
      const task = await server.asCeo(`/api/tasks/${id}`);
      expect(task.status).toBe(200);
      expect(((await task.json()) as { title: string }).title).toBe(title);
    }
    // Writes work at once after the restart.
    expect(
      (
        await server.asCeo('/api/tasks', {
          body: taskBody({ title: 'After the crash', project_id: projectId }),
        })
      ).status,
    ).toBe(201);
  }, 120_000);

  it('keeps every acknowledged agent message, exactly once, when killed under concurrent gateway verbs', async () => {
    const senders = ['be-dev-1', 'be-dev-2', 'fe-dev-1', 'fe-dev-2', 'ux-dev-1', 'ux-dev-2'].map(
      rosterMember,
    );
    const perSender = 40;
    const killAfter = 30;
    const acknowledged = new Map<string, string>(); // body → conversation id
    let killing: Promise<void> | undefined;
    const send = async (sender: (typeof senders)[number]) => {
      const headers = {
        ...cluster.headersFor(sender.id, sender.role, sender.team ?? ''),
        'content-type': 'application/json',
      };
      for (let i = 0; i < perSender && !killing; i++) {
        const body = `Crash drill note ${i} from ${sender.slug}`;
        const response = await fetch(`${server.base}/api/v1/do`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ tool: 'dm', to: `${sender.slug.split('-')[0]}-qa`, body }),
        }).catch(() => undefined);
        if (!response) return;
        const answer = (await response.json().catch(() => ({}))) as {
          ok?: boolean;
          data?: { conversation_id?: string };
        };
        if (response.status === 200 && answer.ok && answer.data?.conversation_id) {
          acknowledged.set(body, answer.data.conversation_id);
          if (acknowledged.size === killAfter) killing ??= server.kill();
        }
      }
    };
    await Promise.all(senders.map(send));
    await killing;
    expect(acknowledged.size).toBeGreaterThanOrEqual(killAfter);
    expect(acknowledged.size).toBeLessThan(senders.length * perSender);

    await server.restart();
    const stored = new Map<string, number>();
    for (const conversation of new Set(acknowledged.values())) {
      const response = await server.asCeo(`/api/a2a/admin/conversations/${conversation}/messages?limit=500`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { messages: { body: string }[] };
      for (const message of page.messages) stored.set(message.body, (stored.get(message.body) ?? 0) + 1);
    }
    const missing = [...acknowledged.keys()].filter((body) => !stored.has(body));
    const doubled = [...stored].filter(([, count]) => count > 1).map(([body]) => body);
    expect(missing).toEqual([]);
    expect(doubled).toEqual([]);
  }, 120_000);
});
