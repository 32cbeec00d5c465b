/** A flag changed through the API becomes effective when the app restarts on the same data. */
import { describe, expect, it } from 'vitest';
import { json, startTestApp } from '../../../test/support/app.js';
import { createTestStores } from '../../../test/support/stores.js';

describe('feature flags across a restart', () => {
  it('applies the persisted flag on the next boot', async () => {
    const stores = await createTestStores();
    try {
      const a = await startTestApp({ stores });
      const changed = await a.app.inject({
        method: 'PUT',
        url: '/api/settings/ci_watch',
        headers: a.ceoHeaders,
        payload: { value: true },
      });
      expect(json(changed)).toMatchObject({ value: true, effective: false, restart_required: true });
      expect(a.settings.flags.isEnabled('ci_watch')).toBe(false);
      await a.close();

      const b = await startTestApp({ stores });
      expect(b.settings.flags.isEnabled('ci_watch')).toBe(true);
      const flags = json<{ flags: { key: string }[] }>(
        await b.app.inject({ method: 'GET', url: '/api/settings/feature-flags', headers: b.ceoHeaders }),
      );
      expect(flags.flags.find((flag) => flag.key === 'ci_watch')).toMatchObject({
        persisted: true,
        effective: true,
        restart_required: false,
      });
      const setting = await b.app.inject({
        method: 'GET',
        url: '/api/settings/ci_watch',
        headers: b.ceoHeaders,
      });
      expect(json(setting)).toMatchObject({ value: true, effective: true, restart_required: false });
      await b.close();
    } finally {
      await stores.dispose();
    }
  });
});
