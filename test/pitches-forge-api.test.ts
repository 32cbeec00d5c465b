/**
 * Approval with a provisioning forge (PUT /api/pitches/forge, CEO): each cell's repository is
 * created on the fake forge (GitHub and Gitea wires) under the configured owner with the token,
 * clonable, and the project points at it; a repository of that name already there is reused; a
 * forge down answers 502 `forge_unavailable` and the pitch stays proposed. The token is write-only.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, pitchBody } from './pitches-support.js';
import { json, type TestApp } from './support/app.js';
import { startAppWithFlags } from './support/engines.js';
import { FAKE_FORGE_USER, type FakeForge, startFakeForge } from './support/fake-forge/index.js';

interface Pitch {
  id: string;
  status: string;
  project_ids: string[];
}
interface Project {
  slug: string;
  git_url: string;
  git_provider: string;
  forge_api_url: string | null;
  has_git_token: boolean;
}

describe('pitch approval through the provisioning forge', () => {
  let t: TestApp;
  let forge: FakeForge;
  beforeAll(async () => {
    forge = await startFakeForge();
    t = await startAppWithFlags(['provisioning']);
  });
  afterAll(async () => {
    await t?.close();
    await forge?.close();
  });

  const configure = (payload: object, headers = t.ceoHeaders) =>
    t.app.inject({ method: 'PUT', url: '/api/pitches/forge', headers, payload });
  const proposeAndApprove = async (slug: string, cells: string[]) => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/pitches',
      headers: as(t, 'product-owner'),
      payload: pitchBody(slug, cells),
    });
    const pitch = json<Pitch>(made);
    return {
      pitch,
      approved: await t.app.inject({
        method: 'POST',
        url: `/api/pitches/${pitch.id}/approve`,
        headers: t.ceoHeaders,
        payload: {},
      }),
    };
  };
  const project = async (id: string) =>
    json<Project>(await t.app.inject({ url: `/api/projects/${id}`, headers: t.ceoHeaders }));
  const creations = () =>
    forge.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/repos')).map((r) => r.path);

  it('is configured by the CEO only, with a write-only token', async () => {
    const none = await t.app.inject({ url: '/api/pitches/forge', headers: t.ceoHeaders });
    expect(json<{ forge: unknown }>(none).forge).toBeNull();
    const body = { provider: 'github', api_url: forge.githubApiUrl, owner: 'acme' };
    expect((await configure({ ...body, token: forge.token }, as(t, 'product-owner'))).statusCode).toBe(403);
    expect((await configure(body)).statusCode).toBe(422);
    expect((await configure({ ...body, provider: 'gitlab', token: 'x' })).statusCode).toBe(422);
    const set = await configure({ ...body, token: forge.token });
    expect(set.statusCode, set.body).toBe(200);
    expect(json<{ forge: Record<string, unknown> }>(set).forge).toMatchObject({
      provider: 'github',
      owner: 'acme',
      private: true,
      has_token: true,
    });
    expect(set.body).not.toContain(forge.token);
  });

  it('creates one repository per cell on the forge, under the owner with the token, and the projects point at them', async () => {
    const { approved } = await proposeAndApprove('stamps', ['backend', 'frontend']);
    expect(approved.statusCode, approved.body).toBe(200);
    const done = json<Pitch>(approved);
    expect(creations()).toEqual(['/api/v3/orgs/acme/repos', '/api/v3/orgs/acme/repos']);
    expect(forge.requests.every((r) => r.authorized)).toBe(true);
    expect(forge.repository('acme', 'stamps-backend')).toMatchObject({
      private: true,
      description: 'Loyalty stamps',
    });
    const backend = await project(done.project_ids[0]!);
    expect(backend).toMatchObject({
      slug: 'stamps-backend',
      git_url: forge.gitUrl('acme', 'stamps-backend'),
      git_provider: 'github',
      forge_api_url: forge.githubApiUrl,
      has_git_token: true,
    });
    const heads = await promisify(execFile)('git', [
      '-c',
      `http.extraHeader=Authorization: Bearer ${forge.token}`,
      'ls-remote',
      backend.git_url,
      'main',
    ]);
    expect(heads.stdout).toMatch(/refs\/heads\/main/);
  });

  it('reuses a repository of the same name already on the forge', async () => {
    forge.resetRequests();
    forge.createRepository('acme', 'badges');
    const { approved } = await proposeAndApprove('badges', ['backend']);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(forge.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /api/v3/repos/acme/badges');
    const made = await project(json<Pitch>(approved).project_ids[0]!);
    expect(made.git_url).toBe(forge.gitUrl('acme', 'badges'));
  });

  it('answers 502 forge_unavailable when the forge is down, and the pitch stays proposed', async () => {
    forge.failNext({ status: 503, times: 10 });
    const { pitch, approved } = await proposeAndApprove('tiers', ['backend']);
    expect(approved.statusCode, approved.body).toBe(502);
    expect(json<{ error: { code: string; message: string } }>(approved).error).toMatchObject({
      code: 'forge_unavailable',
    });
    forge.clearFailures();
    const after = json<Pitch>(await t.app.inject({ url: `/api/pitches/${pitch.id}`, headers: t.ceoHeaders }));
    expect(after).toMatchObject({ status: 'proposed', project_ids: [] });
    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/pitches/${pitch.id}/approve`,
      headers: t.ceoHeaders,
      payload: {},
    });
    expect(retried.statusCode, retried.body).toBe(200);
  });

  it("creates on Gitea under the token's own user", async () => {
    const set = await configure({
      provider: 'gitea',
      api_url: forge.giteaApiUrl,
      owner: FAKE_FORGE_USER,
      private: false,
    });
    expect(set.statusCode, set.body).toBe(200);
    forge.resetRequests();
    const { approved } = await proposeAndApprove('streaks', ['backend']);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(creations()).toEqual(['/api/v1/user/repos']);
    expect(forge.repository(FAKE_FORGE_USER, 'streaks')?.private).toBe(false);
    expect(await project(json<Pitch>(approved).project_ids[0]!)).toMatchObject({
      git_provider: 'gitea',
      git_url: forge.gitUrl(FAKE_FORGE_USER, 'streaks'),
    });
    const cleared = await t.app.inject({
      method: 'DELETE',
      url: '/api/pitches/forge',
      headers: t.ceoHeaders,
    });
    expect(json<{ forge: unknown }>(cleared).forge).toBeNull();
  });
});
