/**
 * The company charter through the real app: anyone authenticated reads it, only the CEO changes it
 * (a partial update; other roles 403 before their body is even looked at), bad fields are a 422
 * that changes nothing, and every change is in the history with who, which fields, before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { json, startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const as = (slug: string) => {
  const member = rosterMember(slug);
  return t.headersFor(member.id, member.role, member.team ?? '');
};
const get = (headers: Record<string, string> = t.ceoHeaders) =>
  t.app.inject({ method: 'GET', url: '/api/company-goals', headers });
const put = (payload: unknown, headers: Record<string, string> = t.ceoHeaders) =>
  t.app.inject({ method: 'PUT', url: '/api/company-goals', headers, payload: payload as object });
const history = async () =>
  json<{ changes: { changed_by: string; fields: string[]; before: object; after: object }[] }>(
    await t.app.inject({ method: 'GET', url: '/api/company-goals/history', headers: as('be-dev-1') }),
  ).changes;

describe('company goals', () => {
  it('starts empty, readable by any authenticated caller, and not by strangers', async () => {
    const read = await get(as('be-dev-1'));
    expect(read.statusCode, read.body).toBe(200);
    expect(json(read)).toEqual({
      company_name: '',
      north_star: '',
      objectives: [],
      constraints: [],
      operating_policy: {},
      brand_voice: '',
      updated_at: null,
      updated_by: null,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/company-goals' })).statusCode).toBe(401);
  });

  it('lets only the CEO change it, field by field, and audits every change', async () => {
    for (const slug of ['main-pm', 'be-dev-1', 'product-owner']) {
      const refused = await put({ north_star: 'Mine now' }, as(slug));
      expect(refused.statusCode, slug).toBe(403);
      // The role is checked before the body: a bad body from a non-CEO is still a 403.
      expect((await put({ nonsense: true }, as(slug))).statusCode).toBe(403);
    }

    const first = await put({
      company_name: ' Acme Shops ',
      north_star: 'Every order ships the same day',
      objectives: [{ title: 'Cut checkout time', metric: 'p50 checkout seconds', target: '< 30' }],
      constraints: ['No customer data leaves the EU'],
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first)).toMatchObject({
      company_name: 'Acme Shops',
      north_star: 'Every order ships the same day',
      updated_by: 'ceo',
    });

    const second = await put({
      brand_voice: 'Plain, warm, short.',
      operating_policy: { releases: 'weekly' },
    });
    expect(second.statusCode, second.body).toBe(200);
    const now = json<Record<string, unknown>>(await get(as('be-qa')));
    expect(now).toMatchObject({
      company_name: 'Acme Shops',
      north_star: 'Every order ships the same day',
      objectives: [{ title: 'Cut checkout time', metric: 'p50 checkout seconds', target: '< 30' }],
      constraints: ['No customer data leaves the EU'],
      operating_policy: { releases: 'weekly' },
      brand_voice: 'Plain, warm, short.',
      updated_by: 'ceo',
    });
    expect(typeof now.updated_at).toBe('string');

    // Writing the same values again changes nothing and records nothing.
    expect((await put({ brand_voice: 'Plain, warm, short.' })).statusCode).toBe(200);

    const changes = await history();
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({
      changed_by: 'ceo',
      fields: ['operating_policy', 'brand_voice'],
      before: { operating_policy: {}, brand_voice: '' },
      after: { operating_policy: { releases: 'weekly' }, brand_voice: 'Plain, warm, short.' },
    });
    expect(changes[1]).toMatchObject({
      fields: ['company_name', 'north_star', 'objectives', 'constraints'],
      before: { north_star: '' },
      after: { north_star: 'Every order ships the same day' },
    });
  });

  it('refuses bad fields with a 422 naming them, and keeps the charter as it was', async () => {
    const before = json(await get());
    const bad: [string, unknown][] = [
      ['unknown field', { mission: 'x' }],
      ['empty body', {}],
      ['objective without a title', { objectives: [{ detail: 'no title' }] }],
      ['constraints not strings', { constraints: [1, 2] }],
      ['policy value not a string', { operating_policy: { releases: 7 } }],
      ['north star too long', { north_star: 'x'.repeat(1001) }],
    ];
    for (const [what, payload] of bad) {
      const refused = await put(payload);
      expect(refused.statusCode, what).toBe(422);
      expect(json<{ error: { code: string } }>(refused).error.code, what).toBe('validation_failed');
    }
    expect(json(await get())).toEqual(before);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/company-goals/history?limit=0',
          headers: t.ceoHeaders,
        })
      ).statusCode,
    ).toBe(422);
  });
});
