/**
 * Agents' journals through the real app: an agent writes its own entries (the author is the
 * caller, each type has a least length), reads by tier (own always; CEO and auditor read all and
 * only they read theirs; a PM reads their team; others only their own), one entry out of reach is
 * a 404 like an absent one, a whole journal out of reach a 403; paging by cursor; delete one's own
 * only; the knowledge source hands out entries oldest first and a deleted one once as a tombstone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { json, startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

interface Entry {
  id: string;
  author_id: string;
  author_slug: string;
  entry_type: string;
  content: string;
}
interface Page {
  entries: Entry[];
  next_cursor: string | null;
}

const as = (slug: string) => {
  const member = rosterMember(slug);
  return t.headersFor(member.id, member.role, member.team ?? '');
};
const LONG = 'I learned that the limiter must key on the client address, not on the session cookie at all.';
const write = (slug: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/journals/me/entries', headers: as(slug), payload });
const get = (slug: string, url: string) => t.app.inject({ method: 'GET', url, headers: as(slug) });
const ids = (page: Page) => page.entries.map((e) => e.author_slug).sort();

describe('journals', () => {
  const entries: Record<string, Entry> = {};

  beforeAll(async () => {
    for (const slug of ['be-dev-1', 'be-dev-2', 'fe-dev-1', 'be-pm', 'ceo', 'auditor', 'product-owner']) {
      const made = await write(slug, { entry_type: 'learning', content: `${slug}: ${LONG}` });
      expect(made.statusCode, made.body).toBe(201);
      entries[slug] = json<Entry>(made);
    }
  });

  it('writes as the caller and refuses short or malformed entries without writing', async () => {
    expect(entries['be-dev-1']).toMatchObject({
      author_id: rosterMember('be-dev-1').id,
      author_slug: 'be-dev-1',
      entry_type: 'learning',
    });
    const short = await write('be-dev-1', { entry_type: 'decision_log', content: 'Chose Redis.' });
    expect(short.statusCode).toBe(422);
    expect(json<{ error: { code: string } }>(short).error.code).toBe('content_too_short');
    expect((await write('be-dev-1', { entry_type: 'diary', content: LONG })).statusCode).toBe(422);
    expect(
      (await write('be-dev-1', { entry_type: 'general', content: LONG, author: 'ceo' })).statusCode,
    ).toBe(422);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/journals/me/entries', payload: {} })).statusCode,
    ).toBe(401);
    const own = json<Page>(await get('be-dev-1', '/api/journals/me/entries'));
    expect(own.entries.map((e) => e.id)).toEqual([entries['be-dev-1']!.id]);
  });

  it('lists by tier: own; PM their team; CEO and auditor everything', async () => {
    expect(ids(json<Page>(await get('be-dev-1', '/api/journals')))).toEqual(['be-dev-1']);
    expect(ids(json<Page>(await get('product-owner', '/api/journals')))).toEqual(['product-owner']);
    expect(ids(json<Page>(await get('be-pm', '/api/journals')))).toEqual(['be-dev-1', 'be-dev-2', 'be-pm']);
    const all = ids(json<Page>(await get('auditor', '/api/journals?limit=200')));
    expect(all).toEqual(['auditor', 'be-dev-1', 'be-dev-2', 'be-pm', 'ceo', 'fe-dev-1', 'product-owner']);
    expect(ids(json<Page>(await get('ceo', '/api/journals?author=auditor')))).toEqual(['auditor']);
  });

  it('answers 403 for a journal out of reach and 404 for an entry out of reach', async () => {
    expect((await get('be-dev-2', '/api/journals/be-dev-1/entries')).statusCode).toBe(403);
    expect((await get('be-pm', '/api/journals/fe-dev-1/entries')).statusCode).toBe(403);
    expect((await get('be-pm', '/api/journals/ceo/entries')).statusCode).toBe(403);
    expect((await get('main-pm', '/api/journals?author=auditor')).statusCode).toBe(403);
    expect((await get('be-pm', '/api/journals/nobody-here/entries')).statusCode).toBe(404);
    const team = json<Page>(await get('be-pm', '/api/journals/be-dev-1/entries'));
    expect(team.entries.map((e) => e.id)).toEqual([entries['be-dev-1']!.id]);

    const ceoEntry = entries.ceo!.id;
    expect((await get('be-pm', `/api/journal-entries/${ceoEntry}`)).statusCode).toBe(404);
    expect((await get('be-dev-2', `/api/journal-entries/${entries['be-dev-1']!.id}`)).statusCode).toBe(404);
    expect(
      (await get('be-dev-2', '/api/journal-entries/00000000-0000-0000-0000-00000000dead')).statusCode,
    ).toBe(404);
    expect(json<Entry>(await get('auditor', `/api/journal-entries/${ceoEntry}`)).author_slug).toBe('ceo');
    expect((await get('be-pm', `/api/journal-entries/${entries['be-dev-2']!.id}`)).statusCode).toBe(200);
    // Its first path still answers (an alias kept out of the OpenAPI document).
    expect((await get('be-pm', `/api/journals/entries/${entries['be-dev-2']!.id}`)).statusCode).toBe(200);
  });

  it('filters by type and pages by cursor', async () => {
    for (const n of [1, 2, 3]) {
      const made = await write('be-dev-2', {
        entry_type: 'struggle',
        content: `Struggle ${n}: the flaky integration test kept timing out on the shared runner.`,
      });
      expect(made.statusCode).toBe(201);
    }
    const first = json<Page>(await get('be-dev-2', '/api/journals/me/entries?entry_type=struggle&limit=2'));
    expect(first.entries).toHaveLength(2);
    expect(first.next_cursor).not.toBeNull();
    const second = json<Page>(
      await get(
        'be-dev-2',
        `/api/journals/me/entries?entry_type=struggle&limit=2&cursor=${first.next_cursor}`,
      ),
    );
    const seen = [...first.entries, ...second.entries].map((e) => e.content.slice(0, 10)).sort();
    expect(seen).toEqual(['Struggle 1', 'Struggle 2', 'Struggle 3']);
    expect(second.next_cursor).toBeNull();
    expect((await get('be-dev-2', '/api/journals/me/entries?cursor=garbage')).statusCode).toBe(422);
    expect((await get('be-dev-2', '/api/journals/me/entries?limit=0')).statusCode).toBe(422);
  });

  it('names the reads retrieval filters with', async () => {
    const journals = t.modules.journals;
    const reader = (slug: string) => {
      const m = rosterMember(slug);
      return { id: m.id, role: m.role, team: m.team };
    };
    expect(await journals.canReadJournalOf(reader('be-pm'), rosterMember('be-dev-1').id)).toBe(true);
    expect(await journals.canReadJournalOf(reader('be-pm'), 'ceo')).toBe(false);
    expect(await journals.canReadJournalOf(reader('auditor'), 'ceo')).toBe(true);
    expect(await journals.canReadJournalOf(reader('be-dev-1'), 'be-dev-2')).toBe(false);
    expect(await journals.canReadJournalOf(reader('be-dev-1'), 'no-such-agent')).toBe(false);
  });

  it('deletes only one’s own entry, and the knowledge source carries the tombstone once', async () => {
    const source = t.modules.journals.knowledgeSource;
    const before = await source.changedSince(null, 1000);
    expect(before.length).toBeGreaterThanOrEqual(7);
    const mine = before.find((i) => i.ref === entries['be-dev-1']!.id)!;
    expect(mine).toMatchObject({ source: 'journal', deleted: false, project_id: null });
    expect(mine.title.startsWith('be-dev-1 — learning: be-dev-1:')).toBe(true);
    const last = before.at(-1)!;
    expect(await source.changedSince({ at: last.updated_at, ref: last.ref }, 10)).toEqual([]);

    const target = entries['be-dev-1']!.id;
    const del = (slug: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/journal-entries/${target}`, headers: as(slug) });
    expect((await del('be-pm')).statusCode).toBe(403);
    expect((await del('fe-dev-1')).statusCode).toBe(404);
    expect((await del('be-dev-1')).statusCode).toBe(204);
    expect((await get('be-dev-1', `/api/journal-entries/${target}`)).statusCode).toBe(404);
    expect(json<Page>(await get('be-dev-1', '/api/journals/me/entries')).entries).toEqual([]);

    const after = await source.changedSince({ at: last.updated_at, ref: last.ref }, 10);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ ref: target, deleted: true });
    expect(await source.changedSince({ at: after[0]!.updated_at, ref: target }, 10)).toEqual([]);
  });
});
