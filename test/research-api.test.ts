/**
 * /api/research against a fake search API on loopback speaking the Tavily, Brave and Exa wires:
 * results normalized from each, none configured → empty results with `provider: null`, the
 * per-agent daily quota (429 until UTC midnight), the result and fetch-size clamps, the SSRF guard,
 * the audit list, the write-only key, role refusals, and the whole surface off with the flag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../src/platform/clock.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { FAKE_SEARCH_KEY, type FakeSearch, startFakeSearch } from './support/fake-search.js';
import { createTestStores, type TestStores } from './support/stores.js';

let fake: FakeSearch;
let stores: TestStores;
let t: TestApp;
const clock = fakeClock(new Date('2026-11-26T23:00:00Z'));
const config = { researchFetchAllowLoopback: true };

const as =
  (role: string, id = `${role}-1`) =>
  (app: TestApp) =>
    app.headersFor(id, role, role === 'cell_pm' ? 'backend' : '');
const po = as('product_owner');

async function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) {
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

const setting = async (key: string, value: unknown) => {
  const res = await call('PUT', `/api/settings/${key}`, t.ceoHeaders, { value });
  expect(res.statusCode, res.body).toBe(200);
};
const configure = async (provider: string | null) => {
  const res = await call('PUT', '/api/research/provider', t.ceoHeaders, {
    provider,
    ...(provider ? { api_key: FAKE_SEARCH_KEY, base_url: fake.url } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

beforeAll(async () => {
  fake = await startFakeSearch();
  stores = await createTestStores();
  const first = await startTestApp({ stores, config, clock });
  await first.settings.service.set('research', true, 'ceo');
  await first.close();
  t = await startTestApp({ stores, config, clock });
});

afterAll(async () => {
  await t?.close();
  await stores?.dispose();
  await fake?.close();
});

describe('research search', () => {
  it('answers empty results and provider null when no provider is configured', async () => {
    const res = await call('POST', '/api/research/search', po(t), { query: 'vector databases' });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual({ query: 'vector databases', provider: null, answer: null, results: [] });
  });

  it.each([
    ['tavily', 'An answer about agent orchestration.', 0.9],
    ['brave', null, null],
    ['exa', null, 0.9],
  ] as const)('normalizes %s results, clamped to research_max_results', async (provider, answer, score) => {
    await configure(provider);
    const res = await call('POST', '/api/research/search', po(t), {
      query: 'agent orchestration',
      max_results: 10,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = json<{ provider: string; answer: string | null; results: Record<string, unknown>[] }>(res);
    expect(body.provider).toBe(provider);
    expect(body.answer).toBe(answer);
    expect(body.results).toHaveLength(5);
    expect(body.results[0]).toEqual({
      title: 'Result 1 for agent orchestration',
      url: 'https://example.com/1',
      snippet: 'Snippet 1 about agent orchestration.',
      score,
    });
    expect(fake.calls.at(-1)).toEqual({ wire: provider, query: 'agent orchestration', count: 5 });
  });

  it('asks for fewer when the caller does, never more than 10 (422)', async () => {
    await configure('tavily');
    const few = await call('POST', '/api/research/search', po(t), { query: 'q', max_results: 2 });
    expect(json<{ results: unknown[] }>(few).results).toHaveLength(2);
    const many = await call('POST', '/api/research/search', po(t), { query: 'q', max_results: 11 });
    expect(many.statusCode).toBe(422);
  });

  it('answers 502 when the provider fails, without its key', async () => {
    await configure('brave');
    fake.failWith = 500;
    try {
      const res = await call('POST', '/api/research/search', po(t), { query: 'q' });
      expect(res.statusCode).toBe(502);
      expect(json<{ error: { code: string } }>(res).error.code).toBe('research_provider_failed');
      expect(res.body).not.toContain(FAKE_SEARCH_KEY);
    } finally {
      fake.failWith = null;
    }
  });

  it('keeps the key write-only', async () => {
    const res = await configure('exa');
    expect(res.body).not.toContain(FAKE_SEARCH_KEY);
    const read = await call('GET', '/api/research/provider', t.ceoHeaders);
    expect(json(read)).toMatchObject({ provider: 'exa', base_url: fake.url, has_api_key: true });
    expect(read.body).not.toContain(FAKE_SEARCH_KEY);
    const cleared = await configure(null);
    expect(json(cleared)).toMatchObject({ provider: null, has_api_key: false });
  });
});

describe('research roles', () => {
  it('lets the product owner, head of marketing, PMs and CEO search; refuses the rest', async () => {
    for (const role of ['head_marketing', 'main_pm', 'cell_pm']) {
      const res = await call('POST', '/api/research/search', as(role)(t), { query: 'q' });
      expect(res.statusCode, role).toBe(200);
    }
    expect((await call('POST', '/api/research/search', t.ceoHeaders, { query: 'q' })).statusCode).toBe(200);
    for (const role of ['developer', 'qa', 'auditor', 'secretary']) {
      const res = await call('POST', '/api/research/search', as(role)(t), { query: 'q' });
      expect(res.statusCode, role).toBe(403);
      const fetched = await call('POST', '/api/research/fetch', as(role)(t), {
        url: `${fake.url}/page/small`,
      });
      expect(fetched.statusCode, role).toBe(403);
    }
  });

  it('keeps the provider configuration and the audit list to the CEO', async () => {
    const put = await call('PUT', '/api/research/provider', po(t), { provider: 'tavily', api_key: 'k' });
    expect(put.statusCode).toBe(403);
    expect((await call('GET', '/api/research/provider', po(t))).statusCode).toBe(403);
    expect((await call('GET', '/api/research/queries', po(t))).statusCode).toBe(403);
  });
});

describe('research fetch', () => {
  it('answers the text of an HTML page without scripts or styles', async () => {
    const res = await call('POST', '/api/research/fetch', po(t), { url: `${fake.url}/page/small` });
    expect(res.statusCode, res.body).toBe(200);
    const body = json<{ content: string; truncated: boolean }>(res);
    expect(body.content).toBe('Hello & welcome\nSmall page.');
    expect(body.truncated).toBe(false);
  });

  it('reads at most research_fetch_max_bytes and says the page was truncated', async () => {
    await setting('research_fetch_max_bytes', 50_000);
    const res = await call('POST', '/api/research/fetch', po(t), { url: `${fake.url}/page/big` });
    expect(res.statusCode, res.body).toBe(200);
    const body = json<{ content: string; truncated: boolean; bytes: number }>(res);
    expect(body.bytes).toBe(50_000);
    expect(body.truncated).toBe(true);
    expect(body.content.length).toBeLessThan(50_000);
    expect(body.content).toContain('lorem ipsum');
    const chars = await call('POST', '/api/research/fetch', po(t), {
      url: `${fake.url}/page/small`,
      max_chars: 5,
    });
    expect(json(chars)).toMatchObject({ content: 'Hello', truncated: true });
  });

  it.each([
    ['file:///tmp/notes.txt'],
    ['ftp://example.com/x'],
    ['http://10.0.0.1/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://[fd00::1]/'],
    ['http://192.168.1.1/'],
  ])('refuses %s (422 research_url_refused)', async (url) => {
    const res = await call('POST', '/api/research/fetch', po(t), { url });
    expect(res.statusCode, res.body).toBe(422);
    expect(json<{ error: { code: string } }>(res).error.code).toBe('research_url_refused');
  });

  it('refuses a redirect to a private address', async () => {
    const res = await call('POST', '/api/research/fetch', po(t), { url: `${fake.url}/page/to-private` });
    expect(res.statusCode, res.body).toBe(422);
    expect(json<{ error: { code: string } }>(res).error.code).toBe('research_url_refused');
  });
});

describe('research quota and audit', () => {
  it('answers 429 with Retry-After until UTC midnight once an agent used its quota, per agent', async () => {
    await configure('tavily');
    await setting('research_daily_quota_per_agent', 2);
    const quota = as('product_owner', 'po-quota');
    for (let i = 0; i < 2; i++) {
      expect((await call('POST', '/api/research/search', quota(t), { query: `q${i}` })).statusCode).toBe(200);
    }
    const over = await call('POST', '/api/research/search', quota(t), { query: 'one more' });
    expect(over.statusCode).toBe(429);
    expect(json<{ error: { code: string } }>(over).error.code).toBe('research_quota_exhausted');
    expect(over.headers['retry-after']).toBe(String(3600));
    const fetchOver = await call('POST', '/api/research/fetch', quota(t), { url: `${fake.url}/page/small` });
    expect(fetchOver.statusCode).toBe(429);
    const other = await call('POST', '/api/research/search', as('product_owner', 'po-other')(t), {
      query: 'q',
    });
    expect(other.statusCode).toBe(200);

    clock.advance(3600_000);
    expect((await call('POST', '/api/research/search', quota(t), { query: 'tomorrow' })).statusCode).toBe(
      200,
    );
    await setting('research_daily_quota_per_agent', 50);
  });

  it('lets no burst of concurrent calls past the quota, and records only the calls answered', async () => {
    await setting('research_daily_quota_per_agent', 3);
    const burst = as('product_owner', 'po-burst');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', '/api/research/search', burst(t), { query: `burst ${i}` }),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200).length;
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(3);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(8 - ok);
    const audit = await call('GET', '/api/research/queries?agent_id=po-burst', t.ceoHeaders);
    expect(json<{ queries: unknown[] }>(audit).queries).toHaveLength(ok);
    await setting('research_daily_quota_per_agent', 50);
  });

  it('does not count a call the provider failed', async () => {
    const agent = as('product_owner', 'po-failing');
    fake.failWith = 500;
    try {
      expect((await call('POST', '/api/research/search', agent(t), { query: 'q' })).statusCode).toBe(502);
    } finally {
      fake.failWith = null;
    }
    const audit = await call('GET', '/api/research/queries?agent_id=po-failing', t.ceoHeaders);
    expect(json<{ queries: unknown[] }>(audit).queries).toHaveLength(0);
  });

  it('lists every call for the CEO: who, what, which provider, how many results', async () => {
    const res = await call('GET', '/api/research/queries?agent_id=po-quota', t.ceoHeaders);
    expect(res.statusCode, res.body).toBe(200);
    const { queries } = json<{ queries: Record<string, unknown>[] }>(res);
    expect(queries.map((q) => q.subject)).toEqual(['tomorrow', 'q1', 'q0']);
    expect(queries[0]).toMatchObject({
      agent_id: 'po-quota',
      role: 'product_owner',
      kind: 'search',
      provider: 'tavily',
      result_count: 5,
    });
  });
});

describe('research with the flag off', () => {
  it('answers 404 feature_disabled and calls no provider', async () => {
    const off = await startTestApp({ config });
    try {
      const before = fake.calls.length;
      const res = await off.app.inject({
        method: 'POST',
        url: '/api/research/search',
        headers: off.headersFor('po-1', 'product_owner'),
        payload: { query: 'q' },
      });
      expect(res.statusCode).toBe(404);
      expect(json<{ error: { code: string } }>(res).error.code).toBe('feature_disabled');
      expect(fake.calls.length).toBe(before);
    } finally {
      await off.close();
    }
  });
});
