/**
 * The retrieval index through the real app, on both stores: tasks (and any source) are indexed
 * incrementally by the `optimal.index` loop — a changed item's chunks are replaced, a tombstone
 * removes them, the next pass starts from the cursor — and /kb/search finds them by words. With an
 * embedding model configured, PGlite (pgvector embedded) searches in hybrid mode; a PostgreSQL
 * without pgvector says why in /health and stays full-text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOptimalModule, type OptimalModule } from '../src/modules/optimal/index.js';
import { clientFor, taskBody, taskOf } from '../src/modules/tasks/test-fixtures.js';
import { createScheduler } from '../src/platform/scheduler/index.js';
import { insertProject } from './fixtures-task-rows.js';
import { filler, memorySource } from './optimal-support.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { routeFakeProvider } from './support/live-chat.js';

interface Result {
  source: string;
  ref: string;
  title: string;
  url: string | null;
  project_id: string | null;
  snippet: string;
  score: number;
}

let t: TestApp;
let fake: FakeLlm;
let notes: ReturnType<typeof memorySource>;
let extra: OptimalModule;
let projectId: string;

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeLlm();
  projectId = await insertProject(t.platform.database.db);
  notes = memorySource('note');
  // A second indexer over the same tables, for a source the test controls (tombstones included).
  extra = createOptimalModule({
    platform: { ...t.platform, log: t.app.log },
    deps: {
      scheduler: createScheduler({ db: t.platform.database.db, locks: t.platform.locks, log: t.app.log }),
      settings: t.settings,
      providers: t.modules.providers,
      sources: [notes.source],
      // Notes whose ref starts with `ceo-` are for the CEO only.
      visibility: {
        note: async (reader, refs) =>
          new Set(refs.filter((ref) => !ref.startsWith('ceo-') || reader.role === 'ceo')),
      },
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const search = async (body: Record<string, unknown>, headers = t.ceoHeaders) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/optimal/kb/search',
    headers,
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ results: Result[]; mode: string }>(response);
};
const health = async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/optimal/health', headers: t.ceoHeaders });
  expect(response.statusCode, response.body).toBe(200);
  return json<{
    fulltext: boolean;
    vector: { available: boolean; reason: string | null; dimensions: number | null };
    embeddings: { configured: boolean; model: string | null };
    indexed: { chunks: number; by_source: Record<string, number> };
    cursors: { source: string; cursor_ref: string | null; last_error: string | null }[];
  }>(response);
};

describe('indexing and search', () => {
  it('indexes tasks and finds them by words, scoped by project and source', async () => {
    const pm = clientFor(t.app, t.headersFor, 'main-pm');
    const task = taskOf(
      await pm.post(
        '/api/tasks',
        taskBody({
          title: 'Rotate the broker certificates',
          description: 'The zanzibar cluster certificates expire in March; rotate them without downtime.',
          acceptance_criteria: ['Every broker presents the new certificate'],
          project_id: projectId,
        }),
      ),
    );
    await t.modules.optimal.indexNow();

    const found = await search({ query: 'zanzibar certificates' });
    expect(found.mode).toBe('fulltext');
    expect(found.results[0]).toMatchObject({
      source: 'task',
      ref: task.id,
      title: 'Rotate the broker certificates',
      url: `/api/tasks/${task.id}`,
      project_id: projectId,
    });
    expect(found.results[0]!.snippet).toContain('zanzibar');
    // The acceptance criteria are indexed too.
    expect((await search({ query: 'presents the new certificate' })).results.map((r) => r.ref)).toContain(
      task.id,
    );
    expect((await search({ query: 'zanzibar', project_id: 'another-project' })).results).toEqual([]);
    expect((await search({ query: 'zanzibar', sources: ['doc'] })).results).toEqual([]);
    expect((await search({ query: 'zanzibar', sources: ['task'] })).results).toHaveLength(1);

    // A changed task is indexed again on the next pass: its old words are gone, the new ones found.
    const ceo = clientFor(t.app, t.headersFor, 'ceo');
    const patched = await ceo.patch(`/api/tasks/${task.id}`, {
      description: 'The kalahari cluster certificates expire in March.',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await t.modules.optimal.indexNow();
    expect((await search({ query: 'zanzibar' })).results).toEqual([]);
    expect((await search({ query: 'kalahari' })).results.map((r) => r.ref)).toEqual([task.id]);

    // Review findings are indexed with their task's project.
    const [finding] = await t.modules.findings.service.raise(task.id, 'qa', 1, 'be-qa', [
      {
        severity: 'major',
        file: 'deploy/certs.sh',
        expected: 'The gnu broker keeps serving during the rotation',
        actual: 'The gnu broker drops connections for a minute',
        fix: 'Drain each broker before restarting it',
      },
    ]);
    await t.modules.optimal.indexNow();
    expect((await search({ query: 'gnu broker drops connections' })).results[0]).toMatchObject({
      source: 'finding',
      ref: finding!.id,
      title: 'major finding: The gnu broker keeps serving during the rotation',
      url: `/api/tasks/${task.id}/findings`,
      project_id: projectId,
    });
  });

  it('replaces the chunks of a changed item, removes a tombstoned one, and resumes from its cursor', async () => {
    notes.put('n1', 'Quokka migration notes', `${filler(60)}\n\nThe quokka service moves to the new region.`);
    notes.put('n2', 'Unrelated note', 'Nothing to see here.');
    await extra.indexNow();
    const before = await health();
    expect(before.indexed.by_source.note).toBeGreaterThan(3); // long body: several chunks
    expect((await search({ query: 'quokka region' })).results).toMatchObject([
      { source: 'note', ref: 'n1', title: 'Quokka migration notes', url: '/notes/n1' },
    ]);

    notes.put('n1', 'Wombat migration notes', 'The wombat service moves to the new region.');
    const callsBefore = notes.calls.length;
    await extra.indexNow();
    // The pass asked only for what changed after the last item it had seen.
    expect(notes.calls[callsBefore]).toMatchObject({ ref: 'n2' });
    expect((await search({ query: 'quokka' })).results).toEqual([]);
    expect((await search({ query: 'wombat region' })).results).toMatchObject([
      { ref: 'n1', title: 'Wombat migration notes' },
    ]);
    expect((await health()).indexed.by_source.note).toBe(2); // one chunk each now

    notes.remove('n1');
    await extra.indexNow();
    expect((await search({ query: 'wombat' })).results).toEqual([]);
    const after = await health();
    expect(after.indexed.by_source.note).toBe(1);
    expect(after.cursors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'note', cursor_ref: 'n1', last_error: null }),
      ]),
    );
  });

  it('shows the items of a source only to the readers its visibility filter allows', async () => {
    notes.put('ceo-1', 'Board minutes', 'The okapi acquisition is confidential.');
    notes.put('all-1', 'Town hall', 'The okapi mascot won the vote.');
    await extra.indexNow();
    const query = { query: 'okapi', limit: 10 };
    const ceo = await extra.service.search({ id: 'ceo', role: 'ceo' }, query);
    expect(ceo.results.map((r) => r.ref).sort()).toEqual(['all-1', 'ceo-1']);
    const dev = await extra.service.search({ id: 'be-dev-1', role: 'developer' }, query);
    expect(dev.results.map((r) => r.ref)).toEqual(['all-1']);
  });

  it('refuses bad input with a 422 and strangers with a 401', async () => {
    for (const body of [
      {},
      { query: '' },
      { query: '   ' },
      { query: 'x', limit: 51 },
      { query: 'x', limit: 0 },
      { query: 'x', extra: 1 },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/optimal/kb/search',
        headers: t.ceoHeaders,
        payload: body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/optimal/kb/search', payload: { query: 'x' } }))
        .statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/optimal/health' })).statusCode).toBe(401);
    // Query syntax that is not words still answers (websearch syntax never errors).
    expect((await search({ query: '"unclosed -( or' })).results).toBeInstanceOf(Array);
  });

  it('fuses vector similarity in when an embedding model is configured, where pgvector exists', async () => {
    const pglite = t.platform.database.kind === 'pglite';
    const none = await health();
    expect(none.fulltext).toBe(true);
    expect(none.embeddings.configured).toBe(false);
    expect(none.vector.available).toBe(pglite);
    if (!pglite) expect(none.vector.reason).toMatch(/pgvector/);

    await routeFakeProvider(t, fake);
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/embedding_model',
      headers: t.ceoHeaders,
      payload: { value: 'fake-embed' },
    });
    expect(set.statusCode, set.body).toBe(200);
    notes.put('n3', 'Capybara runbook', 'Restart the capybara workers one at a time.');
    await extra.indexNow();

    const state = await health();
    expect(state.embeddings).toMatchObject({ configured: true, model: 'fake-embed' });
    const found = await search({ query: 'capybara workers' });
    expect(found.results[0]).toMatchObject({ source: 'note', ref: 'n3' });
    if (pglite) {
      expect(state.vector).toMatchObject({ available: true, dimensions: fake.embeddingDimensions });
      expect(found.mode).toBe('hybrid');
      expect(fake.requests.some((r) => r.path === '/v1/embeddings')).toBe(true);
    } else {
      expect(state.vector.available).toBe(false);
      expect(found.mode).toBe('fulltext');
    }
  });
});
