/**
 * The pause service on the real settings store (PGlite, or PostgreSQL when GAFFER_TEST_DATABASE_URL
 * is set) and the real bus: pause, resume, expiry, the hold loops consult, and failing closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStores, type TestPlatform, type TestStores } from '../../../test/support/stores.js';
import type { EventOf } from '../../platform/bus/index.js';
import { fakeClock } from '../../platform/clock.js';
import { AppError } from '../../platform/http/errors.js';
import { createSettings, type SettingsModule } from '../settings/index.js';
import { MaintenancePauseService, type PauseRecordStore } from './service.js';

const HOUR = 3_600_000;
/** How long a condition may take to come true (generous: suites run in parallel). */
const WAIT = { timeout: 15_000, interval: 20 };

describe('MaintenancePauseService', () => {
  let stores: TestStores;
  let platform: TestPlatform;
  let settings: SettingsModule;
  const clock = fakeClock(new Date('2026-03-01T12:00:00.000Z'));

  beforeAll(async () => {
    stores = await createTestStores();
    platform = await stores.platform({ clock });
    settings = await createSettings({ platform, deps: {} });
  });
  afterAll(async () => {
    await stores.dispose();
  });

  const serviceOn = (store: PauseRecordStore) =>
    new MaintenancePauseService(store, clock, platform.bus, platform.log);

  it('pauses with the default expiry, publishes the row, and resumes idempotently', async () => {
    const service = serviceOn(settings.service);
    const heard: EventOf<'MAINTENANCE_PAUSE_CHANGED'>[] = [];
    const unsubscribe = platform.bus.subscribe('MAINTENANCE_PAUSE_CHANGED', (event) => {
      heard.push(event);
    });
    const row = await service.pause('engines', { mode: 'drain', reason: ' upgrade ' }, 'ceo');
    expect(row).toEqual({
      scope: 'engines',
      paused: true,
      mode: 'drain',
      paused_by: 'ceo',
      reason: 'upgrade',
      paused_at: '2026-03-01T12:00:00.000Z',
      expires_at: '2026-03-01T16:00:00.000Z',
      read_degraded_since: null,
    });
    expect((await service.list()).map((r) => [r.scope, r.paused])).toEqual([
      ['dispatch', false],
      ['board_programs', false],
      ['engines', true],
    ]);
    await service.resume('engines', 'ceo');
    expect((await service.resume('engines', 'ceo')).paused).toBe(false);
    await expect.poll(() => heard.length, WAIT).toBe(3);
    expect(heard.map((event) => [event.data.scope, event.data.paused])).toEqual([
      ['engines', true],
      ['engines', false],
      ['engines', false],
    ]);
    unsubscribe();
  });

  it('refuses an expiry in the past or beyond 336 hours with a 422 on body.expires_at', async () => {
    const service = serviceOn(settings.service);
    for (const expires_at of ['2026-03-01T11:59:59Z', '2026-03-15T12:00:00.001Z']) {
      const error = await service
        .pause('dispatch', { mode: 'kill', expires_at }, 'ceo')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ statusCode: 422, details: [{ field: 'body.expires_at' }] });
    }
    expect((await service.row('dispatch')).paused).toBe(false);
  });

  it('holds the asked scopes only, interrupting for a kill pause, and lets go at expiry', async () => {
    const service = serviceOn(settings.service);
    expect(await service.holdFor(['board_programs', 'engines'])).toBeNull();
    await service.pause('board_programs', { mode: 'drain' }, 'ceo');
    expect(await service.holdFor(['dispatch'])).toBeNull();
    const drain = await service.holdFor(['board_programs', 'engines']);
    expect(drain).toEqual({
      reason: 'maintenance pause on board_programs (drain) by ceo until 2026-03-01T16:00:00.000Z',
      interrupt: false,
    });
    await service.pause('engines', { mode: 'kill', expires_at: '2026-03-01T13:00:00Z' }, 'ceo');
    const both = await service.holdFor(['board_programs', 'engines']);
    expect(both?.interrupt).toBe(true);
    expect(both?.reason).toContain('maintenance pause on engines (kill)');
    clock.advance(HOUR); // the engines pause ends on its own
    expect(await service.holdFor(['board_programs', 'engines'])).toMatchObject({ interrupt: false });
    expect((await service.row('engines')).paused).toBe(false);
    clock.advance(3 * HOUR);
    expect(await service.holdFor(['board_programs', 'engines'])).toBeNull();
  });

  it('fails closed: an unreadable scope counts as paused and shows since when reads fail', async () => {
    let failing = false;
    const flaky: PauseRecordStore = {
      get: (key) => (failing ? Promise.reject(new Error('connection refused')) : settings.service.get(key)),
      setInternal: (key, value, by) => settings.service.setInternal(key, value, by),
    };
    const service = serviceOn(flaky);
    await service.resume('dispatch', 'ceo');
    failing = true;
    const firstFailure = clock.now().toISOString();
    expect(await service.row('dispatch')).toMatchObject({
      scope: 'dispatch',
      paused: true,
      read_degraded_since: firstFailure,
    });
    clock.advance(60_000);
    expect(await service.holdFor(['dispatch'])).toMatchObject({ interrupt: false });
    expect((await service.row('dispatch')).read_degraded_since).toBe(firstFailure); // the first failure is kept
    expect((await service.row('engines')).read_degraded_since).toBe(clock.now().toISOString()); // per scope
    failing = false;
    expect(await service.row('dispatch')).toMatchObject({ paused: false, read_degraded_since: null });
    expect(await service.holdFor(['dispatch'])).toBeNull();
  });
});
