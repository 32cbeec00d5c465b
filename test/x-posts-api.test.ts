/**
 * /api/x/posts against a fake X API v2 on loopback: the head of marketing drafts, each draft is
 * held for the CEO with its impact bar; approve (optionally edited, ≤ 280) posts it — or marks it
 * failed with X's reason, retryable; reject with a reason, then a revision linked to it; a decided
 * post is a 409; the token is write-only; other roles are refused.
 */

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { xPosts } from '../src/modules/x-posts/schema.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { FAKE_X_TOKEN, type FakeX, startFakeX } from './support/fake-x.js';

let fake: FakeX;
let t: TestApp;

const GOOD =
  'Gaffer 0.30.0 ships the operator maintenance pause: drain or kill dispatch for up to 24 hours, ' +
  'with a countdown on every page. Notes: https://example.com/r/0.30.0';

interface Post {
  id: string;
  status: string;
  body: string;
  length: number;
  approved_body: string | null;
  impact: { score: number; failed: { rule: string }[] };
  reject_reason: string | null;
  failure_reason: string | null;
  tweet_id: string | null;
  revision_of: string | null;
  revised_by: string | null;
}

const hom = () => t.headersFor(rosterMember('head-marketing').id, 'head_marketing', 'board');

async function inbox(headers: Record<string, string>): Promise<{ subject: string; body: string }[]> {
  const res = await call('GET', '/api/notifications', headers);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ notifications: { subject: string; body: string }[] }>(res).notifications;
}

async function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) {
  return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

async function draft(body = GOOD, extra: object = {}): Promise<Post> {
  const res = await call('POST', '/api/x/posts', hom(), {
    kind: 'release',
    body,
    release_ref: '0.30.0',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return json<Post>(res);
}

const setCredentials = (token: string) =>
  call('PUT', '/api/x/credentials', t.ceoHeaders, { bearer_token: token, base_url: fake.url });

beforeAll(async () => {
  fake = await startFakeX();
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('X post drafts', () => {
  it('holds a draft for the CEO with its impact bar', async () => {
    const post = await draft('Big news!!! Our amazing product is now even better 🚀 #ai #agents');
    expect(post.status).toBe('held');
    expect(post.impact.score).toBe(15);
    expect(post.impact.failed.map((f) => f.rule)).toEqual([
      'deliverable_first',
      'verifiable_specific',
      'no_hashtags',
      'no_emoji',
      'no_exclamation',
      'no_hype',
      'length_sweet_spot',
    ]);
    const [told] = await inbox(t.ceoHeaders);
    expect(told?.subject).toBe('[x] release post drafted — impact 15/100');
    const list = await call('GET', '/api/x/posts?status=held', t.ceoHeaders);
    expect(json<{ posts: Post[] }>(list).posts.find((p) => p.id === post.id)?.impact.score).toBe(15);
  });

  it('refuses a draft over 280 characters (422) and keeps nothing', async () => {
    const before = json<{ posts: Post[] }>(await call('GET', '/api/x/posts', t.ceoHeaders)).posts.length;
    const res = await call('POST', '/api/x/posts', hom(), { kind: 'feature', body: 'x'.repeat(281) });
    expect(res.statusCode).toBe(422);
    expect(json<{ posts: Post[] }>(await call('GET', '/api/x/posts', t.ceoHeaders)).posts).toHaveLength(
      before,
    );
  });

  it('counts length as X does: a long link is 23, CJK characters 2', async () => {
    const link = `https://example.com/releases/${'r'.repeat(300)}`;
    const linked = `Gaffer 0.31.0 notes: ${link}`;
    expect([...linked].length).toBeGreaterThan(280);
    const accepted = await call('POST', '/api/x/posts', hom(), { kind: 'feature', body: linked });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(json<Post>(accepted).length).toBe('Gaffer 0.31.0 notes: '.length + 23);

    const wide = await call('POST', '/api/x/posts', hom(), { kind: 'feature', body: '漢'.repeat(141) });
    expect(wide.statusCode).toBe(422);
    expect(json<{ error: { details: { length: number } } }>(wide).error.details).toMatchObject({
      length: 282,
    });
  });

  it('lets only the head of marketing draft, and only the CEO decide', async () => {
    for (const role of ['ceo', 'product_owner', 'developer']) {
      const headers = role === 'ceo' ? t.ceoHeaders : t.headersFor(`${role}-1`, role);
      const res = await call('POST', '/api/x/posts', headers, { kind: 'feature', body: GOOD });
      expect(res.statusCode, role).toBe(403);
    }
    const post = await draft();
    expect((await call('POST', `/api/x/posts/${post.id}/approve`, hom(), {})).statusCode).toBe(403);
    expect((await call('POST', `/api/x/posts/${post.id}/reject`, hom(), { reason: 'no' })).statusCode).toBe(
      403,
    );
    expect(
      (await call('GET', '/api/x/posts', t.headersFor('dev-1', 'developer', 'backend'))).statusCode,
    ).toBe(403);
    expect((await call('PUT', '/api/x/credentials', hom(), { bearer_token: 'x' })).statusCode).toBe(403);
  });
});

describe('approving X posts', () => {
  it('answers 409 x_not_configured and keeps the post held while no credentials are set', async () => {
    const post = await draft();
    const res = await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {});
    expect(res.statusCode).toBe(409);
    expect(json<{ error: { code: string } }>(res).error.code).toBe('x_not_configured');
    expect(json<Post>(await call('GET', `/api/x/posts/${post.id}`, t.ceoHeaders)).status).toBe('held');
  });

  it('posts an approved draft, with the CEO’s edit, through POST /2/tweets', async () => {
    const set = await setCredentials(FAKE_X_TOKEN);
    expect(set.statusCode).toBe(200);
    expect(json(set)).toEqual({ has_credentials: true, base_url: fake.url });
    expect(set.body).not.toContain(FAKE_X_TOKEN);

    const post = await draft();
    const edited = `${GOOD.replace('every page', 'every panel page')}`;
    const res = await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, { body: edited });
    expect(res.statusCode, res.body).toBe(200);
    const posted = json<Post>(res);
    expect(posted.status).toBe('posted');
    expect(posted.approved_body).toBe(edited);
    expect(posted.body).toBe(GOOD);
    expect(fake.posts.at(-1)).toEqual({ id: posted.tweet_id, text: edited });

    const again = await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {});
    expect(again.statusCode).toBe(409);
    expect(json<{ error: { code: string } }>(again).error.code).toBe('x_post_decided');
    expect(fake.posts.filter((p) => p.id === posted.tweet_id)).toHaveLength(1);
  });

  it('refuses an edited body over 280 characters (422) and leaves the post held', async () => {
    const post = await draft();
    const res = await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {
      body: 'é'.repeat(281),
    });
    expect(res.statusCode).toBe(422);
    expect(json<Post>(await call('GET', `/api/x/posts/${post.id}`, t.ceoHeaders)).status).toBe('held');
    const exactly = await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {
      body: 'é'.repeat(280),
    });
    expect(json<Post>(exactly).status).toBe('posted');
  });

  it.each([
    ['forbidden', /HTTP 403 — Forbidden: You are not allowed to create a Tweet with duplicate content/],
    ['rate_limited', /HTTP 429 — Too Many Requests.*resets at 1893456000/],
  ] as const)(
    'marks the post failed with X’s reason when X answers %s, and posts on retry',
    async (mode, reason) => {
      const post = await draft();
      fake.mode = mode;
      const failed = json<Post>(await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {}));
      fake.mode = 'ok';
      expect(failed.status).toBe('failed');
      expect(failed.failure_reason).toMatch(reason);
      expect(
        json<{ posts: Post[] }>(await call('GET', '/api/x/posts?status=failed', t.ceoHeaders)).posts.map(
          (p) => p.id,
        ),
      ).toContain(post.id);

      const retried = json<Post>(await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {}));
      expect(retried.status).toBe('posted');
      expect(retried.failure_reason).toBeNull();
    },
  );

  it('marks the post failed on a 401 without ever showing the token', async () => {
    await setCredentials('a-revoked-token');
    const post = await draft();
    const res = await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {});
    await setCredentials(FAKE_X_TOKEN);
    expect(json<Post>(res)).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringMatching(/HTTP 401/),
    });
    expect(res.body).not.toContain('a-revoked-token');
  });
});

describe('a post left approved by a process that died mid-post', () => {
  it('is 409 while its post may be in flight, and approvable again once it surely timed out', async () => {
    const post = await draft();
    const stuck = (decidedAt: Date) =>
      t.platform.database.db
        .update(xPosts)
        .set({ status: 'approved', decidedAt })
        .where(eq(xPosts.id, post.id));
    await stuck(new Date());
    expect((await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {})).statusCode).toBe(409);
    await stuck(new Date(Date.now() - 3_600_000));
    const retried = await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {});
    expect(json<Post>(retried).status).toBe('posted');
  });
});

describe('rejecting X posts', () => {
  it('shows the reason to the head of marketing and links the revision', async () => {
    const post = await draft('We made the release even better than before, and you will love it.');
    const rejected = await call('POST', `/api/x/posts/${post.id}/reject`, t.ceoHeaders, {
      reason: 'Name what shipped and the version.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const seen = json<Post>(await call('GET', `/api/x/posts/${post.id}`, hom()));
    expect(seen).toMatchObject({ status: 'rejected', reject_reason: 'Name what shipped and the version.' });
    const [told] = await inbox(hom());
    expect(told?.subject).toBe('[x] your release post was rejected — revise it');
    expect(told?.body).toContain('Name what shipped and the version.');
    expect(told?.body).toContain(`revision_of ${post.id}`);

    const revision = await draft(GOOD, { revision_of: post.id });
    expect(revision).toMatchObject({ status: 'held', revision_of: post.id });
    expect(revision.impact.score).toBeGreaterThan(seen.impact.score);
    expect(json<Post>(await call('GET', `/api/x/posts/${post.id}`, hom())).revised_by).toBe(revision.id);

    expect(
      (await call('POST', `/api/x/posts/${post.id}/reject`, t.ceoHeaders, { reason: 'again' })).statusCode,
    ).toBe(409);
    expect((await call('POST', `/api/x/posts/${post.id}/approve`, t.ceoHeaders, {})).statusCode).toBe(409);
  });

  it('accepts a revision only of a rejected post', async () => {
    const held = await draft();
    const res = await call('POST', '/api/x/posts', hom(), {
      kind: 'release',
      body: GOOD,
      revision_of: held.id,
    });
    expect(res.statusCode).toBe(422);
  });

  it('answers 404 for an unknown post', async () => {
    const res = await call('POST', '/api/x/posts/00000000-0000-4000-8000-000000000000/reject', t.ceoHeaders, {
      reason: 'x',
    });
    expect(res.statusCode).toBe(404);
  });
});
