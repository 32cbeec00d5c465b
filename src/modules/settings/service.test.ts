/** The settings store on a real database (PGlite, or PostgreSQL when GAFFER_TEST_DATABASE_URL is set). */
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestStores, type TestPlatform, type TestStores } from '../../../test/support/stores.js';
import { fakeClock } from '../../platform/clock.js';
import { AppError } from '../../platform/http/errors.js';
import { CATALOGUE } from './catalogue.js';
import { SettingsCatalogue } from './catalogue-lookup.js';
import { defineSetting } from './definition.js';
import { SettingsService } from './service.js';

/** The real entries plus internal ones (an exact key and a family), which the real catalogue has none of yet. */
const TEST_CATALOGUE = [
  ...CATALOGUE,
  defineSetting({
    key: 'last_update_id',
    kind: 'value',
    label: 'Last update id',
    description: 'Internal cursor.',
    schema: Type.Integer({ minimum: 0 }),
    default: 0,
    writable: false,
  }),
  defineSetting({
    key: 'pause.*',
    kind: 'value',
    label: 'Pause record',
    description: 'One record per scope.',
    schema: Type.Union([
      Type.Null(),
      Type.Object(
        { mode: Type.Union([Type.Literal('drain'), Type.Literal('kill')]) },
        { additionalProperties: false },
      ),
    ]),
    default: null,
    writable: false,
  }),
] as const;

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('SettingsService', () => {
  let stores: TestStores;
  let platform: TestPlatform;
  const clock = fakeClock(new Date('2026-03-01T12:00:00Z'));
  let service: SettingsService<typeof TEST_CATALOGUE>;

  beforeAll(async () => {
    stores = await createTestStores();
    platform = await stores.platform();
    service = new SettingsService(platform.database.db, clock, new SettingsCatalogue(TEST_CATALOGUE));
  });
  beforeEach(async () => {
    await platform.database.db.execute(sql`delete from settings`);
  });
  afterAll(async () => {
    await stores.dispose();
  });

  it('answers the default when nothing is stored', async () => {
    expect(await service.get('ci_watch')).toBe(false);
    expect(await service.get('ceo_name')).toBe('CEO');
    expect(await service.get('transcript_retention_days')).toBe(30);
    expect(await service.get('pause.dispatch')).toBeNull();
    expect(await service.read('ceo_name')).toMatchObject({ stored: false, updatedAt: null, updatedBy: null });
  });

  it('persists a write, and a second write replaces the first (one row per key)', async () => {
    const first = await service.set('ceo_name', 'Ada', 'ceo-1');
    expect(first).toMatchObject({
      key: 'ceo_name',
      value: 'Ada',
      stored: true,
      updatedBy: 'ceo-1',
      updatedAt: clock.now(),
    });
    clock.advance(60_000);
    await service.set('ceo_name', 'Grace', 'ceo-2');
    expect(await service.read('ceo_name')).toMatchObject({
      value: 'Grace',
      updatedBy: 'ceo-2',
      updatedAt: clock.now(),
    });
    const { rows } = (await platform.database.db.execute(
      sql`select count(*)::int as n from settings`,
    )) as unknown as {
      rows: { n: number }[];
    };
    expect(rows[0]?.n).toBe(1);
  });

  it('keeps a string that looks like JSON a string', async () => {
    await service.set('ceo_name', '123', 'ceo');
    expect(await service.get('ceo_name')).toBe('123');
    await service.set('ceo_name', 'true', 'ceo');
    expect(await service.get('ceo_name')).toBe('true');
    await service.set('ci_watch', true, 'ceo');
    expect(await service.get('ci_watch')).toBe(true);
  });

  it('refuses a value of the wrong type with field details', async () => {
    const cases: [string, unknown][] = [
      ['ci_watch', 'yes'],
      ['ci_watch', 1],
      ['transcript_retention_days', 0],
      ['transcript_retention_days', '30'],
      ['ceo_name', 'A'.repeat(61)],
      ['ceo_name', ''],
      ['ceo_name', null],
    ];
    for (const [key, value] of cases) {
      const error = await rejection(service.set(key, value, 'ceo'));
      expect(error, `${key} = ${JSON.stringify(value)}`).toMatchObject({
        statusCode: 422,
        code: 'validation_failed',
      });
      expect(error.details).toEqual([{ field: 'body.value', message: expect.any(String) }]);
    }
    expect(await service.read('ceo_name')).toMatchObject({ stored: false });
  });

  it('refuses an unknown key with unknown_setting, and answers 404 when reading one', async () => {
    expect(await rejection(service.set('no_such_key', true, 'ceo'))).toMatchObject({
      statusCode: 422,
      code: 'unknown_setting',
    });
    expect(await rejection(service.read('no_such_key'))).toMatchObject({
      statusCode: 404,
      code: 'not_found',
    });
  });

  it('keeps internal keys out of set() and lets setInternal() write them', async () => {
    expect(await rejection(service.set('last_update_id', 5, 'ceo'))).toMatchObject({
      statusCode: 422,
      code: 'setting_not_writable',
    });
    expect(await rejection(service.set('pause.dispatch', null, 'ceo'))).toMatchObject({
      code: 'setting_not_writable',
    });

    await service.setInternal('last_update_id', 5, 'system');
    await service.setInternal('pause.dispatch', { mode: 'drain' }, 'system');
    expect(await service.get('last_update_id')).toBe(5);
    expect(await service.get('pause.dispatch')).toEqual({ mode: 'drain' });
    expect(await service.get('pause.engines')).toBeNull();
  });

  it('validates internal writes too, with fields under `value`', async () => {
    const wrong = { mode: 'stop', extra: true } as unknown as { mode: 'drain' };
    const error = await rejection(service.setInternal('pause.dispatch', wrong, 'system'));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { field: 'value.extra', message: 'is not allowed' },
        { field: 'value.mode', message: expect.any(String) },
      ]),
    );
    expect(await rejection(service.setInternal('pause.Not A Scope', null, 'system'))).toMatchObject({
      code: 'unknown_setting',
    });
  });

  it('lists exact keys in catalogue order, then the stored members of families', async () => {
    await service.setInternal('pause.engines', { mode: 'kill' }, 'system');
    await service.setInternal('pause.dispatch', null, 'system');
    await service.set('transcript_retention_days', 7, 'ceo');
    const listed = await service.list();
    expect(listed.map((r) => [r.key, r.value])).toEqual([
      ['ci_watch', false],
      ['dep_update', false],
      ['release_manager', false],
      ['telegram_enabled', false],
      ['provisioning', false],
      ['research', false],
      ['ceo_name', 'CEO'],
      ['transcript_retention_days', 7],
      ['company_monthly_budget_usd', null],
      ['model_prices', {}],
      ['embedding_model', ''],
      ['research_daily_quota_per_agent', 50],
      ['research_max_results', 5],
      ['research_fetch_max_bytes', 200_000],
      ['last_update_id', 0],
      ['pause.dispatch', null],
      ['pause.engines', { mode: 'kill' }],
    ]);
  });

  it('reads a stored value that no longer fits the catalogue as the default, and ignores unknown rows', async () => {
    await platform.database.db.execute(
      sql`insert into settings (key, value) values ('transcript_retention_days', '"forever"'::jsonb), ('retired_key', 'true'::jsonb)`,
    );
    expect(await service.read('transcript_retention_days')).toMatchObject({ value: 30, stored: false });
    expect((await service.list()).map((r) => r.key)).not.toContain('retired_key');
  });

  it('types keys and values from the catalogue', async () => {
    const name: string = await service.get('ceo_name');
    const days: number = await service.get('transcript_retention_days');
    expect([name, days]).toEqual(['CEO', 30]);
    // @ts-expect-error not a key of the catalogue
    await expect(service.get('no_such_key')).rejects.toThrow();
    // @ts-expect-error a flag holds a boolean
    await expect(service.setInternal('ci_watch', 'yes', 'system')).rejects.toThrow();
  });
});
