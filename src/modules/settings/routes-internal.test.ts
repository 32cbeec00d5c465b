/**
 * Internal (non-writable) settings through the API. The real catalogue declares none yet, so this
 * file adds one exact key and one family to it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, startTestApp, type TestApp } from '../../../test/support/app.js';

// The factory is hoisted above the imports, so it loads what it needs itself.
vi.mock('./catalogue.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./catalogue.js')>();
  const { Type } = await import('typebox');
  const { defineSetting } = await import('./definition.js');
  const internal = {
    kind: 'value',
    label: 'Internal state',
    description: 'Kept by the service.',
    schema: Type.Union([Type.Null(), Type.Object({ mode: Type.String() })]),
    default: null,
    writable: false,
  } as const;
  return {
    ...original,
    CATALOGUE: [
      ...original.CATALOGUE,
      defineSetting({ ...internal, key: 'internal_cursor' }),
      defineSetting({ ...internal, key: 'internal_pause.*' }),
    ],
  };
});

describe('internal settings through /api/settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const put = (key: string, value: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/settings/${key}`, headers: t.ceoHeaders, payload: { value } });

  it('refuses to change a non-writable key with 422 setting_not_writable', async () => {
    for (const key of ['internal_cursor', 'internal_pause.dispatch']) {
      const response = await put(key, { mode: 'drain' });
      expect(response.statusCode, key).toBe(422);
      expect(json<{ error: { code: string } }>(response).error.code).toBe('setting_not_writable');
    }
  });

  it('shows internal state read-only, family members once stored', async () => {
    const service = t.settings.service as unknown as {
      setInternal(key: string, value: unknown, by: string): Promise<unknown>;
    };
    await service.setInternal('internal_pause.engines', { mode: 'kill' }, 'system');

    const { settings } = json<{ settings: { key: string; value: unknown; writable: boolean }[] }>(
      await t.app.inject({ method: 'GET', url: '/api/settings', headers: t.ceoHeaders }),
    );
    expect(settings.filter((s) => !s.writable)).toEqual([
      expect.objectContaining({ key: 'internal_cursor', value: null, writable: false }),
      expect.objectContaining({
        key: 'internal_pause.engines',
        value: { mode: 'kill' },
        updated_by: 'system',
      }),
    ]);
    const one = await t.app.inject({
      method: 'GET',
      url: '/api/settings/internal_pause.dispatch',
      headers: t.ceoHeaders,
    });
    expect(json(one)).toMatchObject({
      key: 'internal_pause.dispatch',
      value: null,
      writable: false,
      updated_at: null,
    });
  });
});
