/** /api/settings through the whole app: CEO only, schemas, 422s, and flag changes that wait for a restart. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startTestApp, type TestApp } from '../../../test/support/app.js';

interface SettingBody {
  key: string;
  kind: string;
  value: unknown;
  default: unknown;
  writable: boolean;
  updated_at: string | null;
  updated_by: string | null;
  effective?: boolean;
  restart_required?: boolean;
}

interface ErrorBody {
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

describe('/api/settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string, headers = t.ceoHeaders) => t.app.inject({ method: 'GET', url, headers });
  const put = (key: string, payload: unknown, headers = t.ceoHeaders) =>
    t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers, payload: payload as object });

  it('lists every setting with its value, default and last change', async () => {
    const response = await get('/api/settings');
    expect(response.statusCode).toBe(200);
    const { settings } = json<{ settings: SettingBody[] }>(response);
    expect(settings.map((s) => s.key)).toEqual([
      'ci_watch',
      'dep_update',
      'release_manager',
      'telegram_enabled',
      'provisioning',
      'research',
      'ceo_name',
      'transcript_retention_days',
      'company_monthly_budget_usd',
      'model_prices',
      'embedding_model',
      'research_daily_quota_per_agent',
      'research_max_results',
      'research_fetch_max_bytes',
    ]);
    expect(settings.find((s) => s.key === 'ci_watch')).toMatchObject({
      kind: 'flag',
      label: 'Multi-repo CI-watch',
      value: false,
      default: false,
      writable: true,
      updated_at: null,
      updated_by: null,
      effective: false,
      restart_required: false,
    });
    expect(settings.find((s) => s.key === 'ceo_name')).toMatchObject({
      kind: 'value',
      value: 'CEO',
      default: 'CEO',
    });
    expect(settings.find((s) => s.key === 'ceo_name')).not.toHaveProperty('effective');
  });

  it('reads one setting, and answers 404 for an unknown key', async () => {
    const response = await get('/api/settings/transcript_retention_days');
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({
      key: 'transcript_retention_days',
      value: 30,
      default: 30,
      label: expect.any(String),
    });

    const missing = await get('/api/settings/no_such_key');
    expect(missing.statusCode).toBe(404);
    expect(json<ErrorBody>(missing).error.code).toBe('not_found');
  });

  it('changes a value at once, recording who changed it', async () => {
    const response = await put('ceo_name', { value: 'Ada Lovelace' });
    expect(response.statusCode).toBe(200);
    const body = json<SettingBody>(response);
    expect(body).toMatchObject({
      key: 'ceo_name',
      value: 'Ada Lovelace',
      updated_by: '00000000-0000-0000-0000-000000000001',
    });
    expect(Date.parse(body.updated_at ?? '')).not.toBeNaN();
    expect(json(await get('/api/settings/ceo_name'))).toMatchObject({ value: 'Ada Lovelace' });
  });

  it('persists a flag but keeps it ineffective until the next restart', async () => {
    const response = await put('release_manager', { value: true });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({
      key: 'release_manager',
      value: true,
      effective: false,
      restart_required: true,
    });
    expect(t.settings.flags.isEnabled('release_manager')).toBe(false);

    const flags = json<{ flags: Record<string, unknown>[]; note: string }>(
      await get('/api/settings/feature-flags'),
    );
    expect(flags.note).toBe('Changes take effect on the next restart.');
    expect(flags.flags).toEqual([
      {
        key: 'ci_watch',
        label: 'Multi-repo CI-watch',
        description: expect.any(String),
        persisted: false,
        effective: false,
        restart_required: false,
      },
      {
        key: 'dep_update',
        label: 'Dependency-update bot',
        description: expect.any(String),
        persisted: false,
        effective: false,
        restart_required: false,
      },
      {
        key: 'release_manager',
        label: 'Gated release manager',
        description: expect.any(String),
        persisted: true,
        effective: false,
        restart_required: true,
      },
      {
        key: 'telegram_enabled',
        label: 'Telegram chat relay',
        description: expect.any(String),
        persisted: false,
        effective: false,
        restart_required: false,
      },
      {
        key: 'provisioning',
        label: 'Pitch provisioning',
        description: expect.any(String),
        persisted: false,
        effective: false,
        restart_required: false,
      },
      {
        key: 'research',
        label: 'Web research',
        description: expect.any(String),
        persisted: false,
        effective: false,
        restart_required: false,
      },
    ]);
  });

  it('answers 422 unknown_setting for an unknown key', async () => {
    const response = await put('no_such_key', { value: true });
    expect(response.statusCode).toBe(422);
    expect(json<ErrorBody>(response).error.code).toBe('unknown_setting');
  });

  it.each([
    ['ci_watch', 'true'],
    ['ci_watch', 1],
    ['transcript_retention_days', 0],
    ['transcript_retention_days', 2.5],
    ['transcript_retention_days', '30'],
    ['ceo_name', 'A'.repeat(61)],
    ['ceo_name', ''],
  ])('answers 422 with field details for %s = %j', async (key, value) => {
    const response = await put(key, { value });
    expect(response.statusCode).toBe(422);
    const { error } = json<ErrorBody>(response);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ field: 'body.value', message: expect.any(String) }]);
  });

  it('answers 422 for a body with an extra property or without `value`', async () => {
    const extra = await put('ci_watch', { value: true, also: 1 });
    expect(extra.statusCode).toBe(422);
    expect(json<ErrorBody>(extra).error).toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ field: 'body.also', message: 'is not an accepted property' })],
    });

    const missing = await put('ci_watch', {});
    expect(missing.statusCode).toBe(422);
    expect(json<ErrorBody>(missing).error).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'body.value', message: 'is required' }],
    });
    expect(json(await get('/api/settings/ci_watch'))).toMatchObject({ value: false });
  });

  it('is for the CEO only: 403 for a developer, 401 without credentials', async () => {
    const developer = t.headersFor('dev-1', 'developer', 'backend');
    for (const request of [
      get('/api/settings', developer),
      get('/api/settings/feature-flags', developer),
      put('ci_watch', { value: true }, developer),
    ]) {
      const response = await request;
      expect(response.statusCode).toBe(403);
      expect(json<ErrorBody>(response).error.code).toBe('forbidden');
    }
    for (const request of [
      get('/api/settings', {}),
      get('/api/settings/ceo_name', {}),
      put('ci_watch', { value: true }, {}),
    ]) {
      expect((await request).statusCode).toBe(401);
    }
  });

  it('documents every route in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, Record<string, { tags?: string[]; summary?: string }>> }>(
      await get('/docs/json'),
    );
    for (const [path, method] of [
      ['/api/settings', 'get'],
      ['/api/settings/feature-flags', 'get'],
      ['/api/settings/{key}', 'get'],
      ['/api/settings/{key}', 'put'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toMatchObject({
        tags: ['settings'],
        summary: expect.any(String),
      });
    }
  });
});
