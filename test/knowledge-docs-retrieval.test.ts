/**
 * The Knowledge issue's proof across modules, through the real app, real git and a fake model
 * provider: a doc a documenter writes for a task is a commit on the task's branch, /kb/search finds
 * it, and a RAG query cites it; a journal entry is found by those who may read that journal and by
 * nobody else.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { projects } from '../src/modules/projects/schema.js';
import { GitRunner, lsRemote, openRepo } from '../src/platform/git/index.js';
import { seedBareRemote, tempDirs } from '../src/platform/git/test-support.js';
import { insertTask } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { routeFakeProvider } from './support/live-chat.js';

let t: TestApp;
let fake: FakeLlm;
const dirs = tempDirs('gaffer-knowledge-');

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeLlm();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  dirs.cleanup();
});

const as = (slug: string) => {
  const m = rosterMember(slug);
  return t.headersFor(m.id, m.role, m.team ?? '');
};

interface Hit {
  source: string;
  ref: string;
  title: string;
}
const search = async (query: string, headers: Record<string, string>) => {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/optimal/kb/search',
    headers,
    payload: { query },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return json<{ results: Hit[] }>(answer).results;
};

describe('knowledge across modules', () => {
  it('finds a doc committed on a task branch and cites it in a RAG answer', async () => {
    const runner = new GitRunner({ home: join(dirs.make(), 'home') });
    const remote = await seedBareRemote(runner, join(dirs.make(), 'origin.git'));
    const [project] = await t.platform.database.db
      .insert(projects)
      .values({ slug: 'ledger', name: 'Ledger', gitUrl: remote, gitProvider: 'local', createdBy: 'ceo' })
      .returning();
    const branch = 'feature/ledger-export';
    const task = await insertTask(t.platform.database.db, {
      team: 'backend',
      projectId: project!.id,
      branchName: branch,
      title: 'Document the ledger export',
    });

    const written = await t.app.inject({
      method: 'POST',
      url: '/api/docs',
      headers: as('be-doc'),
      payload: {
        task_id: task.id,
        path: 'docs/guide/ledger-export.md',
        doc_type: 'guide',
        title: 'Ledger export guide',
        content:
          '# Ledger export\n\nThe quokka exporter writes one CSV row per ledger entry, nightly at 02:00 UTC.\n',
      },
    });
    expect(written.statusCode, written.body).toBe(201);
    const doc = json<{ doc: { id: string; commit_sha: string } }>(written).doc;
    const [tip] = await lsRemote(openRepo(runner, remote), { remote, refs: [`refs/heads/${branch}`] });
    expect(tip?.sha).toBe(doc.commit_sha);

    await t.modules.optimal.indexNow();
    const hits = await search('quokka exporter', as('fe-dev-1'));
    expect(hits.map((hit) => [hit.source, hit.ref, hit.title])).toContainEqual([
      'doc',
      doc.id,
      'Ledger export guide (docs/guide/ledger-export.md)',
    ]);

    await routeFakeProvider(t, fake);
    fake.script({ kind: 'reply', text: 'Nightly at 02:00 UTC, one CSV row per entry [1].' });
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/optimal/rag/query',
      headers: t.ceoHeaders,
      payload: { question: 'When does the quokka exporter run?' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const answer = json<{ answer: string; citations: Hit[] }>(asked);
    expect(answer.answer).toContain('02:00 UTC');
    expect(answer.citations.map((c) => [c.source, c.ref])).toContainEqual(['doc', doc.id]);
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('one CSV row per ledger entry');
  });

  it('shows a journal entry in search only to those who may read that journal', async () => {
    const wrote = await t.app.inject({
      method: 'POST',
      url: '/api/journals/me/entries',
      headers: t.ceoHeaders,
      payload: {
        entry_type: 'general',
        content: 'The wombat acquisition stays confidential until the board signs off next quarter.',
      },
    });
    expect(wrote.statusCode, wrote.body).toBe(201);
    await t.modules.optimal.indexNow();
    expect((await search('wombat acquisition', t.ceoHeaders)).map((hit) => hit.source)).toContain('journal');
    expect((await search('wombat acquisition', as('auditor'))).map((hit) => hit.source)).toContain('journal');
    expect(await search('wombat acquisition', as('be-dev-1'))).toEqual([]);
    expect(await search('wombat acquisition', as('main-pm'))).toEqual([]);
  });
});
