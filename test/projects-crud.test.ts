/** /api/projects through the whole app: create, read, list, change, delete, and the validation rules. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '../src/modules/tasks/schema.js';
import { json, startTestApp, type TestApp } from './support/app.js';

type Project = Record<string, unknown> & { id: string; slug: string };
interface ErrorBody {
  error: { code: string; details?: { field: string; message: string }[] };
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: t.ceoHeaders,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const create = (body: Record<string, unknown>) => call('POST', '/api/projects', body);
const fields = (response: Parameters<typeof json>[0]) =>
  (json<ErrorBody>(response).error.details ?? []).map((d) => d.field);
const repo = (name: string) => `https://github.com/acme/${name}.git`;

describe('creating and reading projects', () => {
  it('creates with defaults and reads back by UUID and slug', async () => {
    const response = await create({ slug: 'api', name: 'API', git_url: repo('api') });
    expect(response.statusCode).toBe(201);
    const project = json<Project>(response);
    expect(project).toMatchObject({
      slug: 'api',
      name: 'API',
      git_url: repo('api'),
      git_provider: null,
      resolved_provider: 'github',
      forge_api_url: null,
      default_branch: 'main',
      protected_branches: ['main'],
      environments: null,
      assigned_cell: null,
      test_command: null,
      ci_watch_enabled: false,
      ci_watch_workflow: 'ci.yml',
      dep_update_command: null,
      dep_update_paths: null,
      agent_network_allow: [],
      monthly_budget_usd: null,
      has_git_token: false,
      is_active: true,
      created_by: expect.any(String),
    });
    expect(json<Project>(await call('GET', `/api/projects/${project.id}`)).slug).toBe('api');
    expect(json<Project>(await call('GET', '/api/projects/api')).id).toBe(project.id);
  });

  it('stores every setting given', async () => {
    const response = await create({
      slug: 'web',
      name: 'Web',
      git_url: 'git@git.example.org:acme/web.git',
      git_provider: 'gitea',
      forge_api_url: 'https://git.example.org/api/v1',
      default_branch: 'trunk',
      environments: [
        { name: 'dev', branch: 'develop' },
        { name: 'staging', branch: 'staging' },
        { name: 'prod', branch: 'trunk' },
      ],
      assigned_cell: 'frontend',
      test_command: 'npm test',
      lint_command: 'npm run lint',
      typecheck_command: 'npm run typecheck',
      build_command: 'npm run build',
      quality_command: 'npm run check',
      ci_watch_enabled: true,
      ci_watch_workflow: 'build.yml',
      dep_update_command: 'npm update',
      dep_update_paths: 'package-lock.json, web/package-lock.json',
      monthly_budget_usd: 250.5,
    });
    expect(response.statusCode).toBe(201);
    expect(json<Project>(response)).toMatchObject({
      resolved_provider: 'gitea',
      protected_branches: ['trunk'],
      environments: [
        { name: 'dev', branch: 'develop' },
        { name: 'staging', branch: 'staging' },
        { name: 'prod', branch: 'trunk' },
      ],
      quality_command: 'npm run check',
      ci_watch_enabled: true,
      ci_watch_workflow: 'build.yml',
      dep_update_paths: 'package-lock.json,web/package-lock.json',
      monthly_budget_usd: 250.5,
    });
  });

  it('infers local for local bare repositories and unknown hosts as null', async () => {
    const local = json<Project>(await create({ slug: 'local', name: 'L', git_url: '/srv/git/local.git' }));
    expect(local).toMatchObject({ git_provider: null, resolved_provider: 'local' });
    const file = json<Project>(await create({ slug: 'file', name: 'F', git_url: 'file:///srv/git/f.git' }));
    expect(file.resolved_provider).toBe('local');
    const other = json<Project>(
      await create({ slug: 'other', name: 'O', git_url: 'https://git.example.org/a/b' }),
    );
    expect(other.resolved_provider).toBeNull();
  });

  it('refuses a taken slug with 409 and unknown projects with 404', async () => {
    const again = await create({ slug: 'api', name: 'Again', git_url: repo('again') });
    expect(again.statusCode).toBe(409);
    expect(json<ErrorBody>(again).error.code).toBe('slug_taken');
    expect((await call('GET', '/api/projects/nope')).statusCode).toBe(404);
    expect((await call('GET', '/api/projects/00000000-0000-0000-0000-00000000abcd')).statusCode).toBe(404);
    expect((await call('PATCH', '/api/projects/nope', { name: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', '/api/projects/nope')).statusCode).toBe(404);
  });
});

describe('validation (422 with field details)', () => {
  const base = { slug: 'v', name: 'V', git_url: repo('v') };
  it.each([
    ['a one-rung ladder', { environments: [{ name: 'prod', branch: 'main' }] }, ['body.environments']],
    [
      'a ladder reusing a branch',
      {
        environments: [
          { name: 'dev', branch: 'main' },
          { name: 'prod', branch: 'main' },
        ],
      },
      ['body.environments.1.branch'],
    ],
    [
      'a rung without a name',
      {
        environments: [
          { name: '', branch: 'dev' },
          { name: 'prod', branch: 'main' },
        ],
      },
      ['body.environments.0.name'],
    ],
    [
      'a rung with an unknown field',
      {
        environments: [
          { name: 'dev', branch: 'dev', url: 'x' },
          { name: 'prod', branch: 'main' },
        ],
      },
      ['body.environments.0.url'],
    ],
    ['a token in the URL', { git_url: 'https://me:ghp_x@github.com/a/b.git' }, ['body.git_url']],
    ['a plain http URL', { git_url: 'http://github.com/a/b.git' }, ['body.git_url']],
    ['a zero budget', { monthly_budget_usd: 0 }, ['body.monthly_budget_usd']],
    ['a negative budget', { monthly_budget_usd: -5 }, ['body.monthly_budget_usd']],
    ['lockfile paths with ..', { dep_update_paths: 'ok.lock,../evil.lock' }, ['body.dep_update_paths']],
    ['an absolute lockfile path', { dep_update_paths: '/etc/passwd' }, ['body.dep_update_paths']],
    ['a bad branch', { default_branch: 'main branch' }, ['body.default_branch']],
    ['an unknown cell', { assigned_cell: 'board' }, ['body.assigned_cell']],
    ['an unknown provider', { git_provider: 'gitlab' }, ['body.git_provider']],
    ['a provider that does not fit', { git_provider: 'local' }, ['body.git_provider']],
    ['a string for a boolean', { ci_watch_enabled: 'yes' }, ['body.ci_watch_enabled']],
    ['an unknown field', { owner: 'me' }, ['body.owner']],
    ['a bad slug', { slug: 'Not OK' }, ['body.slug']],
  ])('refuses %s', async (_name, change, expected) => {
    const response = await create({ ...base, ...change });
    expect(response.statusCode).toBe(422);
    expect(json<ErrorBody>(response).error.code).toBe('validation_failed');
    expect(fields(response)).toEqual(expect.arrayContaining(expected));
  });

  it('refuses a missing required field', async () => {
    const response = await create({ slug: 'v', name: 'V' });
    expect(response.statusCode).toBe(422);
    expect(fields(response)).toEqual(['body.git_url']);
  });
});

describe('changing projects', () => {
  let id: string;
  beforeAll(async () => {
    const project = json<Project>(
      await create({
        slug: 'svc',
        name: 'Service',
        git_url: repo('svc'),
        test_command: 'npm test',
        dep_update_command: 'npm update',
        monthly_budget_usd: 100,
        environments: [
          { name: 'dev', branch: 'dev' },
          { name: 'prod', branch: 'main' },
        ],
      }),
    );
    id = project.id;
  });

  it('changes only the fields present; explicit null clears', async () => {
    const response = await call('PATCH', `/api/projects/${id}`, {
      lint_command: 'npm run lint',
      test_command: null,
      monthly_budget_usd: null,
      ci_watch_enabled: true,
    });
    expect(response.statusCode).toBe(200);
    expect(json<Project>(response)).toMatchObject({
      name: 'Service',
      lint_command: 'npm run lint',
      test_command: null,
      dep_update_command: 'npm update',
      monthly_budget_usd: null,
      ci_watch_enabled: true,
      environments: [
        { name: 'dev', branch: 'dev' },
        { name: 'prod', branch: 'main' },
      ],
    });
  });

  it('stores an emptied ladder as null and validates a new one', async () => {
    const cleared = await call('PATCH', `/api/projects/${id}`, { environments: [] });
    expect(json<Project>(cleared).environments).toBeNull();
    const bad = await call('PATCH', `/api/projects/${id}`, {
      environments: [
        { name: 'dev', branch: 'x' },
        { name: 'prod', branch: 'x' },
      ],
    });
    expect(bad.statusCode).toBe(422);
    expect(fields(bad)).toEqual(['body.environments.1.branch']);
    const unchanged = json<Project>(await call('GET', `/api/projects/${id}`));
    expect(unchanged.environments).toBeNull();
  });

  it('renames the slug unless taken', async () => {
    expect((await call('PATCH', `/api/projects/${id}`, { slug: 'api' })).statusCode).toBe(409);
    const renamed = await call('PATCH', `/api/projects/${id}`, { slug: 'service' });
    expect(json<Project>(renamed).slug).toBe('service');
    expect((await call('PATCH', '/api/projects/service', { name: null })).statusCode).toBe(422);
  });
});

describe("the agents' network allowlist", () => {
  let id: string;
  const read = async () => json<Project>(await call('GET', `/api/projects/${id}`));
  const messages = (response: Parameters<typeof json>[0]) =>
    (json<ErrorBody>(response).error.details ?? []).map((d) => `${d.field} ${d.message}`);

  beforeAll(async () => {
    const response = await create({
      slug: 'py',
      name: 'Py',
      git_url: repo('py'),
      agent_network_allow: ['  pypi.org ', 'files.pythonhosted.org', '', 'PYPI.org'],
    });
    expect(response.statusCode).toBe(201);
    id = json<Project>(response).id;
  });

  it('stores a good list trimmed and without repeats, in the order given, and GET returns it', async () => {
    expect((await read()).agent_network_allow).toEqual(['pypi.org', 'files.pythonhosted.org']);
    const response = await call('PATCH', `/api/projects/${id}`, {
      agent_network_allow: [
        ' registry.npmjs.org',
        '*.pythonhosted.org',
        '203.0.113.7:8443',
        '[2001:db8::1]:443',
        'registry.npmjs.org ',
        'pypi.org',
      ],
    });
    expect(response.statusCode).toBe(200);
    const stored = [
      'registry.npmjs.org',
      '*.pythonhosted.org',
      '203.0.113.7:8443',
      '[2001:db8::1]:443',
      'pypi.org',
    ];
    expect(json<Project>(response).agent_network_allow).toEqual(stored);
    expect((await read()).agent_network_allow).toEqual(stored);
    const listed = json<{ projects: Project[] }>(await call('GET', '/api/projects')).projects;
    expect(listed.find((p) => p.id === id)?.agent_network_allow).toEqual(stored);
  });

  it('refuses a scheme, a CIDR range and a path with a 422 naming each entry, and changes nothing', async () => {
    const before = await read();
    const response = await call('PATCH', `/api/projects/${id}`, {
      name: 'Renamed',
      agent_network_allow: ['pypi.org', 'https://registry.npmjs.org', '10.0.0.0/8', 'pypi.org/simple'],
    });
    expect(response.statusCode).toBe(422);
    expect(json<ErrorBody>(response).error.code).toBe('validation_failed');
    expect(messages(response)).toEqual([
      expect.stringMatching(/^body\.agent_network_allow "https:\/\/registry\.npmjs\.org": .*scheme/),
      expect.stringMatching(/^body\.agent_network_allow "10\.0\.0\.0\/8": .*CIDR/),
      expect.stringMatching(/^body\.agent_network_allow "pypi\.org\/simple": .*path/),
    ]);
    expect(await read()).toEqual(before);
  });

  it('refuses more than 100 entries, and a bad entry on create', async () => {
    const before = await read();
    const many = Array.from({ length: 101 }, (_, i) => `mirror-${i}.example.org`);
    const tooMany = await call('PATCH', `/api/projects/${id}`, { agent_network_allow: many });
    expect(tooMany.statusCode).toBe(422);
    expect(messages(tooMany)).toEqual(['body.agent_network_allow must NOT have more than 100 items']);
    expect(await read()).toEqual(before);
    const hundred = await call('PATCH', `/api/projects/${id}`, { agent_network_allow: many.slice(0, 100) });
    expect(json<Project>(hundred).agent_network_allow).toHaveLength(100);

    const bad = await create({ slug: 'py2', name: 'P', git_url: repo('py2'), agent_network_allow: ['*'] });
    expect(bad.statusCode).toBe(422);
    expect(fields(bad)).toEqual(['body.agent_network_allow']);
    expect((await call('GET', '/api/projects/py2')).statusCode).toBe(404);
  });

  it('clears with [], and refuses null or a string with a 422', async () => {
    await call('PATCH', `/api/projects/${id}`, { agent_network_allow: ['pypi.org'] });
    const emptied = await call('PATCH', `/api/projects/${id}`, { agent_network_allow: [] });
    expect(json<Project>(emptied).agent_network_allow).toEqual([]);
    for (const wrong of [null, 'pypi.org']) {
      const refused = await call('PATCH', `/api/projects/${id}`, { agent_network_allow: wrong });
      expect(refused.statusCode).toBe(422);
      expect(fields(refused)).toEqual(['body.agent_network_allow']);
    }
  });

  it('is what the runtime reads for the project (ProjectsService.agentNetworkAllow)', async () => {
    await call('PATCH', `/api/projects/${id}`, {
      agent_network_allow: ['pypi.org', 'files.pythonhosted.org'],
    });
    const service = t.modules.projects.service;
    expect(await service.agentNetworkAllow(id)).toEqual(['pypi.org', 'files.pythonhosted.org']);
    expect((await service.get(id)).agentNetworkAllow).toEqual(['pypi.org', 'files.pythonhosted.org']);
    expect(await service.agentNetworkAllow('00000000-0000-0000-0000-00000000abcd')).toEqual([]);
  });
});

describe('listing projects', () => {
  it('filters by cell and activity, and pages', async () => {
    await create({ slug: 'be-1', name: 'B1', git_url: repo('be-1'), assigned_cell: 'backend' });
    await create({
      slug: 'be-2',
      name: 'B2',
      git_url: repo('be-2'),
      assigned_cell: 'backend',
      is_active: false,
    });
    const list = async (query: string) =>
      json<{ projects: Project[]; total: number; limit: number; offset: number }>(
        await call('GET', `/api/projects${query}`),
      );
    expect((await list('?cell=backend')).projects.map((p) => p.slug)).toEqual(['be-1']);
    expect((await list('?cell=backend&active_only=false')).projects.map((p) => p.slug)).toEqual([
      'be-1',
      'be-2',
    ]);
    const all = await list('');
    const page = await list('?limit=2&offset=1');
    expect(page).toMatchObject({ total: all.total, limit: 2, offset: 1 });
    expect(page.projects.map((p) => p.slug)).toEqual(all.projects.slice(1, 3).map((p) => p.slug));
    expect((await call('GET', '/api/projects?limit=501')).statusCode).toBe(422);
    const asDev = await t.app.inject({
      url: '/api/projects',
      headers: t.headersFor('be-dev-1', 'developer', 'backend'),
    });
    expect(asDev.statusCode).toBe(200);
  });
});

describe('deleting projects', () => {
  it('deletes with 204, and refuses with 409 while a task references the project', async () => {
    const doomed = json<Project>(await create({ slug: 'doomed', name: 'D', git_url: repo('doomed') }));
    const deleted = await call('DELETE', `/api/projects/${doomed.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call('GET', `/api/projects/${doomed.id}`)).statusCode).toBe(404);

    const busy = json<Project>(await create({ slug: 'busy', name: 'B', git_url: repo('busy') }));
    const db = t.platform.database.db;
    const [task] = await db
      .insert(tasks)
      .values({
        title: 'work',
        description: 'work on busy',
        acceptanceCriteria: [],
        taskType: 'code',
        nature: 'feature',
        complexity: 'simple',
        team: 'backend',
        createdBy: 'ceo',
        projectId: busy.id,
      })
      .returning({ id: tasks.id });
    const refused = await call('DELETE', '/api/projects/busy');
    expect(refused.statusCode).toBe(409);
    expect(json<ErrorBody>(refused).error.code).toBe('project_in_use');
    await db.delete(tasks).where(eq(tasks.id, task!.id));
    expect((await call('DELETE', '/api/projects/busy')).statusCode).toBe(204);
  });
});
