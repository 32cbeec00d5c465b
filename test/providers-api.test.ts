/**
 * /api/providers end to end on the real app and stores: CRUD with a write-only key sealed at rest,
 * role checks, 422s naming the field, the routing resolve order, and the reachability probe
 * against a fake provider on loopback (ok, wrong key, 429, unreachable).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Gaffer } from '../src/app.js';
import { rosterMember } from '../src/modules/agents/index.js';
import { modelProviders } from '../src/modules/providers/schema.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { createTestStores, type TestPlatform, type TestStores } from './support/stores.js';

const KEY = 'sk-very-secret-provider-key-0123456789';

let stores: TestStores;
let platform: TestPlatform;
let gaffer: Gaffer;
let fake: FakeLlm;

beforeAll(async () => {
  stores = await createTestStores();
  platform = await stores.platform();
  gaffer = await buildApp(platform, { logger: false });
  await gaffer.app.ready();
  fake = await startFakeLlm({ apiKey: KEY });
});
afterAll(async () => {
  await gaffer.app.close();
  await stores.dispose();
  await fake.close();
});

const asAgent = (slug: string) => {
  const member = rosterMember(slug);
  return {
    'x-agent-id': member.id,
    'x-agent-role': member.role,
    'x-agent-team': member.team ?? '',
    'x-agent-token': staticToken(platform.secret, {
      id: member.id,
      role: member.role,
      team: member.team ?? '',
    }),
  };
};
const ceo = () => ({ 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) });
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers = ceo(),
) => gaffer.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('providers CRUD', () => {
  it('creates a provider with a write-only key, sealed in the database', async () => {
    const created = await call('POST', '/api/providers', {
      name: 'local',
      kind: 'openai',
      base_url: `${fake.url}/v1`,
      default_model: 'fake-small',
      api_key: KEY,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'local', kind: 'openai', api_key_set: true, enabled: true });
    expect(created.body).not.toContain(KEY);
    const [row] = await platform.database.db
      .select()
      .from(modelProviders)
      .where(eq(modelProviders.name, 'local'));
    expect(row!.apiKeyCiphertext).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(KEY);

    const listed = await call('GET', '/api/providers', undefined, asAgent('main-pm'));
    expect(listed.statusCode).toBe(200);
    expect(listed.json().providers.map((p: { name: string }) => p.name)).toEqual(['local']);
    expect(listed.body).not.toContain(KEY);
    expect((await call('GET', '/api/providers/local')).json().api_key_set).toBe(true);
    expect(
      (await call('POST', '/api/providers', { name: 'local', kind: 'openai', default_model: 'x' }))
        .statusCode,
    ).toBe(409);
  });

  it('clears the key with null and keeps it when absent', async () => {
    const kept = await call('PATCH', '/api/providers/local', { default_model: 'fake-large' });
    expect(kept.json()).toMatchObject({ default_model: 'fake-large', api_key_set: true });
    const cleared = await call('PATCH', '/api/providers/local', { api_key: null });
    expect(cleared.json().api_key_set).toBe(false);
    const set = await call('PATCH', '/api/providers/local', { api_key: KEY, default_model: 'fake-small' });
    expect(set.json().api_key_set).toBe(true);
  });

  it('checks roles: 401 without a token, 403 for a developer reading and a PM writing', async () => {
    expect((await gaffer.app.inject({ url: '/api/providers' })).statusCode).toBe(401);
    expect((await call('GET', '/api/providers', undefined, asAgent('be-dev-1'))).statusCode).toBe(403);
    const pmWrite = await call(
      'POST',
      '/api/providers',
      { name: 'x', kind: 'openai', default_model: 'm' },
      asAgent('main-pm'),
    );
    expect(pmWrite.statusCode).toBe(403);
    expect((await call('PUT', '/api/providers/routing', {}, asAgent('main-pm'))).statusCode).toBe(403);
  });

  it('answers 422 for a bad kind and 404 for an unknown provider', async () => {
    const bad = await call('POST', '/api/providers', { name: 'y', kind: 'cohere', default_model: 'm' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toBeTruthy();
    expect((await call('GET', '/api/providers/nope')).statusCode).toBe(404);
  });
});

describe('routing', () => {
  it('resolves agent → role → global', async () => {
    await call('POST', '/api/providers', {
      name: 'claude',
      kind: 'anthropic',
      base_url: fake.url,
      default_model: 'fake-large',
    });
    expect((await call('GET', '/api/providers/resolve?agent=be-dev-1')).json()).toMatchObject({
      source: null,
    });

    expect((await call('PUT', '/api/providers/routing', { global: { provider: 'local' } })).statusCode).toBe(
      200,
    );
    expect((await call('GET', '/api/providers/resolve?agent=be-dev-1')).json()).toMatchObject({
      source: 'global',
      provider: 'local',
      model: 'fake-small',
    });
    await call('PUT', '/api/providers/routing', {
      roles: { developer: { provider: 'claude', model: 'role-model' } },
    });
    expect((await call('GET', '/api/providers/resolve?agent=be-dev-1')).json()).toMatchObject({
      source: 'role',
      provider: 'claude',
      kind: 'anthropic',
      model: 'role-model',
    });
    await call('PUT', '/api/providers/routing', {
      agents: { 'be-dev-1': { provider: 'local', model: 'own-model' } },
    });
    const own = (
      await call('GET', '/api/providers/resolve?agent=be-dev-1', undefined, asAgent('main-pm'))
    ).json();
    expect(own).toMatchObject({ source: 'agent', provider: 'local', model: 'own-model' });
    expect(
      (await call('GET', `/api/providers/resolve?agent=${rosterMember('be-dev-2').id}`)).json(),
    ).toMatchObject({
      source: 'role',
    });
    const routing = (await call('GET', '/api/providers/routing')).json();
    expect(routing.global).toEqual({ provider: 'local', model: null });
    expect(routing.agents[rosterMember('be-dev-1').id]).toEqual({ provider: 'local', model: 'own-model' });

    await call('PUT', '/api/providers/routing', { agents: { 'be-dev-1': null } });
    expect((await call('GET', '/api/providers/resolve?agent=be-dev-1')).json().source).toBe('role');
  });

  it('422 names the field for an unknown provider, role or agent, and writes nothing', async () => {
    const before = (await call('GET', '/api/providers/routing')).json();
    for (const [body, field] of [
      [{ global: { provider: 'ghost' } }, 'global.provider'],
      [{ roles: { wizard: { provider: 'local' } } }, 'roles.wizard'],
      [{ agents: { 'no-such-agent': { provider: 'local' } } }, 'agents.no-such-agent'],
    ] as const) {
      const response = await call('PUT', '/api/providers/routing', {
        ...body,
        roles: { qa: { provider: 'local' }, ...('roles' in body ? body.roles : {}) },
      });
      expect(response.statusCode).toBe(422);
      expect(JSON.stringify(response.json().error.details)).toContain(field);
    }
    expect((await call('GET', '/api/providers/routing')).json()).toEqual(before);
    expect((await call('GET', '/api/providers/resolve?agent=nobody')).statusCode).toBe(422);
  });

  it('deleting a provider removes its routes', async () => {
    await call('PUT', '/api/providers/routing', { roles: { qa: { provider: 'claude' } } });
    expect((await call('DELETE', '/api/providers/claude')).statusCode).toBe(204);
    const routing = (await call('GET', '/api/providers/routing')).json();
    expect(routing.roles).toEqual({});
    expect((await call('GET', '/api/providers/resolve?agent=be-dev-1')).json().source).toBe('global');
  });
});

describe('POST /api/providers/{name}/test', () => {
  it('reports ok through the real SDK with the stored key', async () => {
    const response = await call('POST', '/api/providers/local/test');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: true, mode: 'models' });
    expect(fake.requests.at(-1)!.apiKey).toBe(KEY);
  });

  it('reports a wrong key as authentication, a 429 as rate-limited, a dead host as unreachable', async () => {
    await call('PATCH', '/api/providers/local', { api_key: 'sk-wrong' });
    const wrong = (await call('POST', '/api/providers/local/test')).json();
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'authentication', status: 401 } });
    await call('PATCH', '/api/providers/local', { api_key: KEY });

    fake.script({ kind: 'rate_limited', retryAfter: '7' });
    const limited = await call('POST', '/api/providers/local/test?mode=completion');
    expect(limited.statusCode).toBe(200);
    expect(limited.json()).toMatchObject({
      ok: false,
      mode: 'completion',
      error: { status: 429, retry_after_seconds: 7 },
    });

    await call('POST', '/api/providers', {
      name: 'dead',
      kind: 'openai',
      base_url: 'http://127.0.0.1:9/v1',
      default_model: 'm',
    });
    const dead = (await call('POST', '/api/providers/dead/test')).json();
    expect(dead).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
  });
});
