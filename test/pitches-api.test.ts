/**
 * /api/pitches through the real app: behind the `provisioning` flag (off: 409
 * `provisioning_disabled` on every route); only the board proposes; the CEO approves — each cell's
 * project on a real repository with its first commit, a product for several cells, the main PM's
 * planning task — or rejects with notes; a decided pitch is a 409 `pitch_decided`; the module's
 * `approve` is the same decision for the secretary's queue.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { GitRunner, gitText, openRepo } from '../src/platform/git/index.js';
import { tempDirs } from '../src/platform/git/test-support.js';
import { as, pitchBody } from './pitches-support.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { startAppWithFlags } from './support/engines.js';

interface Pitch {
  id: string;
  slug: string;
  status: string;
  project_ids: string[];
  product_id: string | null;
  task_id: string | null;
  decision_notes: string | null;
}
interface ErrorBody {
  error: { code: string };
}

describe('pitches with provisioning off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('answers 409 provisioning_disabled on every route', async () => {
    const propose = await t.app.inject({
      method: 'POST',
      url: '/api/pitches',
      headers: as(t, 'product-owner'),
      payload: pitchBody('loyalty', ['backend']),
    });
    expect(propose.statusCode).toBe(409);
    expect(json<ErrorBody>(propose).error.code).toBe('provisioning_disabled');
    const list = await t.app.inject({ url: '/api/pitches', headers: t.ceoHeaders });
    expect(list.statusCode).toBe(409);
    expect((await t.app.inject({ url: '/api/pitches' })).statusCode).toBe(401);
  });
});

describe('pitches with provisioning on', () => {
  let t: TestApp;
  const dirs = tempDirs('gaffer-pitches-');
  let runner: GitRunner;
  beforeAll(async () => {
    runner = new GitRunner({ home: join(dirs.make(), 'home') });
    t = await startAppWithFlags(['provisioning']);
  });
  afterAll(async () => {
    await t?.close();
    dirs.cleanup();
  });

  const propose = (slug: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/pitches', headers: as(t, slug), payload });
  const decide = (id: string, verb: 'approve' | 'reject', payload: object, headers = t.ceoHeaders) =>
    t.app.inject({ method: 'POST', url: `/api/pitches/${id}/${verb}`, headers, payload });
  const read = (url: string) => t.app.inject({ url, headers: t.ceoHeaders });

  it('lets only the board propose, and refuses bad or duplicate pitches', async () => {
    for (const slug of ['be-dev-1', 'main-pm', 'ceo']) {
      expect((await propose(slug, pitchBody('mine', ['backend']))).statusCode, slug).toBe(403);
    }
    const made = await propose('product-owner', pitchBody('loyalty', ['backend']));
    expect(made.statusCode, made.body).toBe(201);
    expect(json<Pitch>(made)).toMatchObject({
      slug: 'loyalty',
      status: 'proposed',
      project_ids: [],
      task_id: null,
    });
    expect((await propose('head-marketing', pitchBody('loyalty', ['frontend']))).statusCode).toBe(409);
    expect((await propose('head-marketing', pitchBody('board-stuff', ['board']))).statusCode).toBe(422);
    expect((await propose('head-marketing', pitchBody('Bad Slug', ['backend']))).statusCode).toBe(422);
    expect((await propose('head-marketing', pitchBody('none', []))).statusCode).toBe(422);

    expect((await t.app.inject({ url: '/api/pitches', headers: as(t, 'main-pm') })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/pitches', headers: as(t, 'be-pm') })).statusCode).toBe(403);
    const proposed = json<{ pitches: Pitch[] }>(await read('/api/pitches?status=proposed')).pitches;
    expect(proposed.map((p) => p.slug)).toEqual(['loyalty']);
  });

  it('approves a one-cell pitch: a project on a real repository and the main PM’s planning task', async () => {
    const pitch = json<Pitch>(await propose('product-owner', pitchBody('wishlist', ['frontend'])));
    expect((await decide(pitch.id, 'approve', {}, as(t, 'product-owner'))).statusCode).toBe(403);
    const approved = await decide(pitch.id, 'approve', { notes: 'Go.' });
    expect(approved.statusCode, approved.body).toBe(200);
    const done = json<Pitch>(approved);
    expect(done).toMatchObject({ status: 'provisioned', product_id: null, decision_notes: 'Go.' });
    expect(done.project_ids).toHaveLength(1);

    const project = json<{ slug: string; git_url: string; assigned_cell: string }>(
      await read(`/api/projects/${done.project_ids[0]}`),
    );
    expect(project).toMatchObject({ slug: 'wishlist', assigned_cell: 'frontend' });
    const readme = await gitText(openRepo(runner, project.git_url), ['show', 'main:README.md']);
    expect(readme).toContain('# Loyalty wishlist');

    const task = json<{ team: string; task_type: string; project_id: string; assigned_to: string }>(
      await read(`/api/tasks/${done.task_id}`),
    );
    expect(task).toMatchObject({ team: 'main_pm', task_type: 'planning', project_id: done.project_ids[0] });
    expect([rosterMember('main-pm').id, 'main-pm']).toContain(task.assigned_to);

    const again = await decide(pitch.id, 'approve', {});
    expect(again.statusCode).toBe(409);
    expect(json<ErrorBody>(again).error.code).toBe('pitch_decided');
    expect((await decide(pitch.id, 'reject', { notes: 'Changed my mind.' })).statusCode).toBe(409);
  });

  it('approves a several-cell pitch with a project per cell and a product routing them', async () => {
    const pitch = json<Pitch>(await propose('head-marketing', pitchBody('referrals', ['backend', 'ux_ui'])));
    const done = json<Pitch>(await decide(pitch.id, 'approve', {}));
    expect(done.status).toBe('provisioned');
    const slugs = [];
    for (const id of done.project_ids)
      slugs.push(json<{ slug: string }>(await read(`/api/projects/${id}`)).slug);
    expect(slugs).toEqual(['referrals-backend', 'referrals-ux-ui']);
    const product = json<{ slug: string; cells: { team: string; project_id: string }[] }>(
      await read(`/api/products/${done.product_id}`),
    );
    expect(product.slug).toBe('referrals');
    expect(product.cells.map((c) => [c.team, c.project_id]).sort()).toEqual(
      [
        ['backend', done.project_ids[0]],
        ['ux_ui', done.project_ids[1]],
      ].sort(),
    );
    expect(json<{ product_id: string }>(await read(`/api/tasks/${done.task_id}`)).product_id).toBe(
      done.product_id,
    );
  });

  it('rejects with notes only, and the module’s approve refuses a decided pitch', async () => {
    const pitch = json<Pitch>(await propose('product-owner', pitchBody('coupons', ['backend'])));
    expect((await decide(pitch.id, 'reject', {})).statusCode).toBe(422);
    expect((await decide(pitch.id, 'reject', { notes: 'No.' }, as(t, 'main-pm'))).statusCode).toBe(403);
    const rejected = await decide(pitch.id, 'reject', { notes: 'Not this quarter.' });
    expect(rejected.statusCode).toBe(200);
    expect(json<Pitch>(rejected)).toMatchObject({ status: 'rejected', decision_notes: 'Not this quarter.' });
    const ceo = rosterMember('ceo');
    const actor = { id: ceo.id, slug: ceo.slug, role: ceo.role, team: ceo.team };
    await expect(t.modules.pitches.approve(pitch.id, null, actor)).rejects.toMatchObject({
      code: 'pitch_decided',
    });
    expect((await read('/api/pitches/00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);

    const queued = json<Pitch>(await propose('product-owner', pitchBody('gift-cards', ['backend'])));
    const viaModule = await t.modules.pitches.approve(queued.id, 'From the directive queue.', actor);
    expect(viaModule).toMatchObject({ status: 'provisioned', decision_notes: 'From the directive queue.' });
  });
});
