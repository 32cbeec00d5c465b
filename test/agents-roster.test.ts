/** /api/agents through the whole app: the seeded company, reads for everyone, CEO-only changes, retire. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY, rosterMember } from '../src/modules/agents/index.js';
import { json, startTestApp, type TestApp } from './support/app.js';

interface AgentBody {
  id: string;
  slug: string;
  name: string;
  role: string;
  team: string | null;
  status: string;
  model: string | null;
  description: string;
  capabilities: string[];
  retired: boolean;
  retired_at: string | null;
}
interface ErrorBody {
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const dev = () => t.headersFor(rosterMember('be-dev-1').id, 'developer', 'backend');
const get = (url: string, headers: Record<string, string> = t.ceoHeaders) =>
  t.app.inject({ method: 'GET', url, headers });
const send = (method: 'POST' | 'PATCH', url: string, payload?: unknown, headers = t.ceoHeaders) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const list = async (query = '', headers?: Record<string, string>) =>
  json<{ agents: AgentBody[] }>(await get(`/api/agents${query}`, headers)).agents;
const fields = (response: Parameters<typeof json>[0]) =>
  (json<ErrorBody>(response).error.details ?? []).map((d) => d.field);

describe('reading the roster', () => {
  it('has the seeded default company, readable by any authenticated caller', async () => {
    const agents = await list('', dev());
    expect(agents).toHaveLength(DEFAULT_COMPANY.length);
    expect(agents.find((a) => a.slug === 'ceo')).toMatchObject({
      id: '00000000-0000-0000-0000-000000000001',
      role: 'ceo',
      status: 'offline',
      retired: false,
    });
    expect(agents.find((a) => a.slug === 'ux-pm')).toMatchObject({
      id: '00000000-0000-0000-0003-000000000004',
      role: 'cell_pm',
      team: 'ux_ui',
    });
  });

  it('needs credentials', async () => {
    expect((await t.app.inject({ url: '/api/agents' })).statusCode).toBe(401);
  });

  it('filters by role, team and status', async () => {
    expect((await list('?role=developer&team=backend')).map((a) => a.slug)).toEqual(['be-dev-1', 'be-dev-2']);
    expect((await list('?team=board&role=pr_reviewer')).map((a) => a.slug)).toEqual([
      'cell-pr-reviewer-2',
      'pr-reviewer-1',
    ]);
    expect(await list('?status=active')).toEqual([]);
    const bad = await get('/api/agents?role=wizard');
    expect(bad.statusCode).toBe(422);
    expect(fields(bad)).toEqual(['query.role']);
  });

  it('reads one agent by UUID or slug; unknown → 404', async () => {
    const byId = json<AgentBody>(await get(`/api/agents/${rosterMember('fe-qa').id}`, dev()));
    expect(byId).toMatchObject({ slug: 'fe-qa', role: 'qa', team: 'frontend' });
    expect(json<AgentBody>(await get('/api/agents/fe-qa')).id).toBe(rosterMember('fe-qa').id);
    const missing = await get('/api/agents/nobody-here');
    expect(missing.statusCode).toBe(404);
    expect(json<ErrorBody>(missing).error.code).toBe('not_found');
    expect((await get('/api/agents/00000000-0000-0000-0000-00000000ffff')).statusCode).toBe(404);
  });
});

describe('adding agents (CEO only)', () => {
  const newDev = { slug: 'be-dev-3', name: 'Backend Developer 3', role: 'developer', team: 'backend' };

  it('adds an agent, 201, and lists it', async () => {
    const response = await send('POST', '/api/agents', {
      ...newDev,
      model: 'sonnet',
      capabilities: ['python', 'sql', 'python'],
    });
    expect(response.statusCode).toBe(201);
    expect(json<AgentBody>(response)).toMatchObject({
      ...newDev,
      model: 'sonnet',
      capabilities: ['python', 'sql'],
      status: 'offline',
      retired: false,
    });
    expect((await list('?role=developer&team=backend')).map((a) => a.slug)).toContain('be-dev-3');
  });

  it('refuses a taken slug with 409', async () => {
    const response = await send('POST', '/api/agents', { ...newDev, name: 'Again' });
    expect(response.statusCode).toBe(409);
    expect(json<ErrorBody>(response).error.code).toBe('slug_taken');
    expect((await send('POST', '/api/agents', { ...newDev, slug: 'ceo' })).statusCode).toBe(409);
  });

  it.each([
    ['a ceo', { ...newDev, slug: 'ceo-2', role: 'ceo', team: 'board' }, ['body.role']],
    ['a system agent', { ...newDev, slug: 'sys-2', role: 'system', team: null }, ['body.role']],
    ['a developer outside a cell', { ...newDev, slug: 'dev-x', team: 'board' }, ['body.team']],
    ['the system team', { ...newDev, slug: 'aud-2', role: 'auditor', team: 'system' }, ['body.team']],
    ['an unknown role', { ...newDev, slug: 'dev-y', role: 'wizard' }, ['body.role']],
    ['an unknown team', { ...newDev, slug: 'dev-z', team: 'sales' }, ['body.team']],
    ['a bad slug', { ...newDev, slug: 'Bad Slug' }, ['body.slug']],
    ['a missing name', { slug: 'dev-n', role: 'developer', team: 'backend' }, ['body.name']],
    ['an unknown field', { ...newDev, slug: 'dev-u', salary: 1 }, ['body.salary']],
  ])('refuses %s with 422 and field details', async (_name, body, expected) => {
    const response = await send('POST', '/api/agents', body);
    expect(response.statusCode).toBe(422);
    expect(fields(response)).toEqual(expect.arrayContaining(expected));
  });

  it('refuses any other role with 403', async () => {
    for (const headers of [dev(), t.headersFor(rosterMember('main-pm').id, 'main_pm', 'main_pm')]) {
      const response = await send('POST', '/api/agents', { ...newDev, slug: 'sneaky' }, headers);
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('editing agents (CEO only)', () => {
  it('changes only the fields given', async () => {
    const response = await send('PATCH', '/api/agents/be-dev-3', {
      name: 'Backend Dev Three',
      description: 'Moves to QA',
      role: 'qa',
      model: null,
    });
    expect(response.statusCode).toBe(200);
    expect(json<AgentBody>(response)).toMatchObject({
      slug: 'be-dev-3',
      name: 'Backend Dev Three',
      description: 'Moves to QA',
      role: 'qa',
      team: 'backend',
      model: null,
      capabilities: ['python', 'sql'],
    });
    const moved = await send('PATCH', '/api/agents/be-dev-3', { team: 'frontend', capabilities: [] });
    expect(json<AgentBody>(moved)).toMatchObject({ team: 'frontend', capabilities: [] });
  });

  it('refuses role changes to or from ceo and system', async () => {
    const promote = await send('PATCH', '/api/agents/be-dev-3', { role: 'ceo' });
    expect(promote.statusCode).toBe(422);
    expect(fields(promote)).toEqual(['body.role']);
    const demote = await send('PATCH', '/api/agents/ceo', { role: 'main_pm' });
    expect(demote.statusCode).toBe(422);
    const renamed = await send('PATCH', '/api/agents/ceo', { name: 'The Boss' });
    expect(json<AgentBody>(renamed)).toMatchObject({ name: 'The Boss', role: 'ceo' });
  });

  it('refuses a team that does not fit the role, unknown agents and other roles', async () => {
    expect(fields(await send('PATCH', '/api/agents/be-dev-1', { team: null }))).toEqual(['body.team']);
    expect((await send('PATCH', '/api/agents/nobody', { name: 'x' })).statusCode).toBe(404);
    expect((await send('PATCH', '/api/agents/be-dev-1', { name: 'me' }, dev())).statusCode).toBe(403);
    // The role is checked before the body: a caller who may not edit learns nothing about the schema.
    const invalidFromDev = await send('PATCH', '/api/agents/be-dev-1', { name: 42, bogus: true }, dev());
    expect(invalidFromDev.statusCode).toBe(403);
    expect((await send('PATCH', '/api/agents/be-dev-1', { name: 42 })).statusCode).toBe(422);
    expect(fields(await send('PATCH', '/api/agents/be-dev-1', { slug: 'renamed' }))).toEqual(['body.slug']);
  });
});

describe('retiring agents (CEO only)', () => {
  it('retires: history kept, left out of lists by default, no further edits', async () => {
    expect((await send('POST', '/api/agents/be-dev-3/retire', undefined, dev())).statusCode).toBe(403);
    const response = await send('POST', '/api/agents/be-dev-3/retire');
    expect(response.statusCode).toBe(200);
    expect(json<AgentBody>(response)).toMatchObject({ slug: 'be-dev-3', retired: true, status: 'offline' });
    expect(json<AgentBody>(response).retired_at).toEqual(expect.any(String));

    expect((await list()).map((a) => a.slug)).not.toContain('be-dev-3');
    expect((await list('?include_retired=true')).map((a) => a.slug)).toContain('be-dev-3');
    expect(json<AgentBody>(await get('/api/agents/be-dev-3')).retired).toBe(true);

    const again = await send('POST', '/api/agents/be-dev-3/retire');
    expect(again.statusCode).toBe(409);
    expect(json<ErrorBody>(again).error.code).toBe('already_retired');
    const edit = await send('PATCH', '/api/agents/be-dev-3', { name: 'Back again' });
    expect(edit.statusCode).toBe(409);
    expect(json<ErrorBody>(edit).error.code).toBe('agent_retired');
    expect(
      (await send('POST', '/api/agents', { slug: 'be-dev-3', name: 'x', role: 'qa', team: 'backend' }))
        .statusCode,
    ).toBe(409);
  });

  it('never retires the CEO or the system agent', async () => {
    for (const slug of ['ceo', 'system']) {
      const response = await send('POST', `/api/agents/${slug}/retire`);
      expect(response.statusCode).toBe(409);
      expect(json<ErrorBody>(response).error.code).toBe('agent_protected');
    }
    expect((await send('POST', '/api/agents/nobody/retire')).statusCode).toBe(404);
  });
});
