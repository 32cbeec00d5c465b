/**
 * The operator maintenance pause through the real app: /api/maintenance-pause (CEO only), expiry
 * bounds and defaults on a fake clock, automatic resume, independent scopes, a pause that survives
 * a restart, failing closed when the stored state cannot be read, and MAINTENANCE_PAUSE_CHANGED on
 * /ws/system.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY } from '../src/modules/agents/roster.js';
import { fakeClock } from '../src/platform/clock.js';
import { CEO_ID } from '../src/platform/http/auth/index.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { createTestStores } from './support/stores.js';
import { connect, listen } from './support/ws-client.js';

const START = new Date('2026-03-01T12:00:00.000Z');
const HOUR = 3_600_000;
const at = (ms: number) => new Date(START.getTime() + ms).toISOString();
const SCOPES = ['dispatch', 'board_programs', 'engines'] as const;

interface Row {
  scope: string;
  paused: boolean;
  mode: string | null;
  paused_by: string | null;
  reason: string | null;
  paused_at: string | null;
  expires_at: string | null;
  read_degraded_since: string | null;
}

const running = (scope: string): Row => ({
  scope,
  paused: false,
  mode: null,
  paused_by: null,
  reason: null,
  paused_at: null,
  expires_at: null,
  read_degraded_since: null,
});

describe('maintenance pause', () => {
  const clock = fakeClock(START);
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    clock.set(START);
    for (const scope of SCOPES) await del(scope);
  });

  const get = () => t.app.inject({ method: 'GET', url: '/api/maintenance-pause', headers: t.ceoHeaders });
  const post = (scope: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/maintenance-pause/${scope}`,
      headers: t.ceoHeaders,
      payload: body as object,
    });
  const del = (scope: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/maintenance-pause/${scope}`, headers: t.ceoHeaders });
  const rows = async () => json<{ scopes: Row[] }>(await get()).scopes;

  it('lists all three scopes, running, when nothing was ever paused', async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ scopes: SCOPES.map(running) });
  });

  it('pauses one scope for 4 hours by default, set by the CEO, leaving the others running', async () => {
    const response = await post('engines', { mode: 'drain', reason: 'rotating the forge token' });
    expect(response.statusCode).toBe(200);
    const row: Row = {
      scope: 'engines',
      paused: true,
      mode: 'drain',
      paused_by: CEO_ID,
      reason: 'rotating the forge token',
      paused_at: at(0),
      expires_at: at(4 * HOUR),
      read_degraded_since: null,
    };
    expect(json(response)).toEqual(row);
    expect(await rows()).toEqual([running('dispatch'), running('board_programs'), row]);

    expect(json(await post('dispatch', { mode: 'kill' }))).toMatchObject({ mode: 'kill', reason: null });
    expect((await rows()).map((r) => [r.scope, r.paused])).toEqual([
      ['dispatch', true],
      ['board_programs', false],
      ['engines', true],
    ]);
    expect(json(await del('dispatch'))).toEqual(running('dispatch'));
    expect((await rows()).map((r) => r.paused)).toEqual([false, false, true]);
  });

  it('accepts an expiry exactly 336 hours ahead, in any offset', async () => {
    const response = await post('board_programs', { mode: 'kill', expires_at: at(336 * HOUR) });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ paused: true, expires_at: at(336 * HOUR) });
    const withOffset = await post('engines', { mode: 'drain', expires_at: '2026-03-01T15:30:00+02:00' });
    expect(json(withOffset)).toMatchObject({ expires_at: '2026-03-01T13:30:00.000Z' });
  });

  it('refuses with 422, never clamping: past, too far, garbage or naive expiry, missing mode, unknown scope', async () => {
    const refusals: [string, unknown][] = [
      ['engines', { mode: 'drain', expires_at: at(-1000) }],
      ['engines', { mode: 'drain', expires_at: at(0) }],
      ['engines', { mode: 'drain', expires_at: at(336 * HOUR + 1000) }],
      ['engines', { mode: 'drain', expires_at: 'next tuesday' }],
      ['engines', { mode: 'drain', expires_at: '2026-03-02T12:00:00' }],
      ['engines', { mode: 'drain', expires_at: '2026-02-30T12:00:00Z' }],
      ['engines', {}],
      ['engines', { reason: 'no mode' }],
      ['engines', { mode: 'pause' }],
      ['engines', { mode: 'drain', reason: 'x'.repeat(501) }],
      ['everything', { mode: 'drain' }],
    ];
    for (const [scope, body] of refusals) {
      const response = await post(scope, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(json<{ error: { code: string } }>(response).error.code).toBe('validation_failed');
    }
    const tooFar = json<{ error: { message: string; details: unknown } }>(
      await post('engines', { mode: 'kill', expires_at: at(337 * HOUR) }),
    );
    expect(tooFar.error.details).toEqual([
      { field: 'body.expires_at', message: 'must be at most 336 hours (14 days) from now' },
    ]);
    expect((await del('everything')).statusCode).toBe(422);
    expect(await rows()).toEqual(SCOPES.map(running));
  });

  it('resumes on its own once expires_at has come, with no sweeper', async () => {
    await post('dispatch', { mode: 'drain', expires_at: at(HOUR) });
    clock.advance(HOUR - 1);
    expect((await rows())[0]?.paused).toBe(true);
    expect(await t.modules.maintenance.holdFor(['dispatch'])).not.toBeNull();
    clock.advance(1);
    expect((await rows())[0]).toEqual(running('dispatch'));
    expect(await t.modules.maintenance.holdFor(['dispatch'])).toBeNull();
  });

  it('resumes at once on DELETE, and DELETE is idempotent', async () => {
    await post('engines', { mode: 'kill' });
    for (let i = 0; i < 2; i += 1) {
      const response = await del('engines');
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual(running('engines'));
    }
  });

  it('is CEO only: every other role gets 403, no credentials 401', async () => {
    const developer = DEFAULT_COMPANY.find((agent) => agent.role === 'developer');
    const mainPm = DEFAULT_COMPANY.find((agent) => agent.role === 'main_pm');
    for (const agent of [developer, mainPm]) {
      if (!agent) throw new Error('the seeded company has no such agent');
      const headers = t.headersFor(agent.id, agent.role, agent.team ?? '');
      const calls = [
        t.app.inject({ method: 'GET', url: '/api/maintenance-pause', headers }),
        t.app.inject({
          method: 'POST',
          url: '/api/maintenance-pause/engines',
          headers,
          payload: { mode: 'drain' },
        }),
        t.app.inject({ method: 'DELETE', url: '/api/maintenance-pause/engines', headers }),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.statusCode).toBe(403);
        expect(json<{ error: { code: string } }>(response).error.code).toBe('forbidden');
      }
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/maintenance-pause' })).statusCode).toBe(401);
    expect(await rows()).toEqual(SCOPES.map(running));
  });

  it('fails closed: while the stored state cannot be read every scope counts as paused, and GET says since when', async () => {
    await post('engines', { mode: 'drain' });
    const db = t.platform.database.db;
    await db.execute(sql`alter table settings rename to settings_away`);
    try {
      const degraded = await rows();
      for (const row of degraded) {
        expect(row).toMatchObject({ paused: true, read_degraded_since: at(0) });
      }
      clock.advance(60_000);
      expect((await rows())[1]?.read_degraded_since).toBe(at(0)); // the first failed read is kept
      expect(await t.modules.maintenance.holdFor(['board_programs'])).toMatchObject({ interrupt: false });
    } finally {
      await db.execute(sql`alter table settings_away rename to settings`);
    }
    const recovered = await rows();
    expect(recovered.map((row) => [row.paused, row.read_degraded_since])).toEqual([
      [false, null],
      [false, null],
      [true, null],
    ]);
  });

  it('publishes MAINTENANCE_PAUSE_CHANGED to /ws/system on pause and on resume', async () => {
    const base = await listen(t);
    const { client } = await connect(`${base}/ws/system`);
    try {
      const paused = json<Row>(await post('board_programs', { mode: 'kill', reason: 'migrating' }));
      expect(await client.next()).toEqual({ type: 'MAINTENANCE_PAUSE_CHANGED', ...paused });
      await del('board_programs');
      expect(await client.next()).toEqual({
        type: 'MAINTENANCE_PAUSE_CHANGED',
        ...running('board_programs'),
      });
    } finally {
      client.close();
    }
  });
});

describe('maintenance pause across a restart', () => {
  it('is still in force after the app restarts on the same data, and still expires on time', async () => {
    const stores = await createTestStores();
    const clock = fakeClock(START);
    try {
      const first = await startTestApp({ stores, clock });
      await first.app.inject({
        method: 'POST',
        url: '/api/maintenance-pause/dispatch',
        headers: first.ceoHeaders,
        payload: { mode: 'kill', reason: 'host maintenance', expires_at: at(2 * HOUR) },
      });
      await first.close();

      const second = await startTestApp({ stores, clock });
      try {
        const read = async () =>
          json<{ scopes: Row[] }>(
            await second.app.inject({
              method: 'GET',
              url: '/api/maintenance-pause',
              headers: second.ceoHeaders,
            }),
          ).scopes[0];
        expect(await read()).toEqual({
          scope: 'dispatch',
          paused: true,
          mode: 'kill',
          paused_by: CEO_ID,
          reason: 'host maintenance',
          paused_at: at(0),
          expires_at: at(2 * HOUR),
          read_degraded_since: null,
        });
        clock.advance(2 * HOUR);
        expect(await read()).toEqual(running('dispatch'));
      } finally {
        await second.close();
      }
    } finally {
      await stores.dispose();
    }
  });
});
