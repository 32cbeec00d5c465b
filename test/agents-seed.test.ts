/** The default company is seeded on first start, and a restart neither duplicates it nor undoes the CEO's edits. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY } from '../src/modules/agents/index.js';
import { json, startTestApp } from './support/app.js';
import { createTestStores } from './support/stores.js';

interface AgentBody {
  slug: string;
  name: string;
  role: string;
  team: string | null;
  retired: boolean;
}

describe('seeding the default company', () => {
  it('survives a restart without duplicates and keeps the CEO’s edits', async () => {
    const stores = await createTestStores();
    try {
      const first = await startTestApp({ stores });
      const roster = async () =>
        json<{ agents: AgentBody[] }>(
          await first.app.inject({ url: '/api/agents?include_retired=true', headers: first.ceoHeaders }),
        ).agents;
      expect(await roster()).toHaveLength(DEFAULT_COMPANY.length);
      const patch = (url: string, payload: object) =>
        first.app.inject({ method: 'PATCH', url, headers: first.ceoHeaders, payload });
      expect((await patch('/api/agents/be-dev-1', { name: 'Ada', team: 'frontend' })).statusCode).toBe(200);
      expect((await patch('/api/agents/fe-qa', { role: 'developer' })).statusCode).toBe(200);
      expect(
        (
          await first.app.inject({
            method: 'POST',
            url: '/api/agents/ux-doc/retire',
            headers: first.ceoHeaders,
          })
        ).statusCode,
      ).toBe(200);
      await first.close();

      const second = await startTestApp({ stores });
      const after = json<{ agents: AgentBody[] }>(
        await second.app.inject({ url: '/api/agents?include_retired=true', headers: second.ceoHeaders }),
      ).agents;
      await second.close();
      expect(after).toHaveLength(DEFAULT_COMPANY.length);
      expect(new Set(after.map((a) => a.slug)).size).toBe(DEFAULT_COMPANY.length);
      expect(after.find((a) => a.slug === 'be-dev-1')).toMatchObject({ name: 'Ada', team: 'frontend' });
      expect(after.find((a) => a.slug === 'fe-qa')).toMatchObject({ role: 'developer' });
      expect(after.find((a) => a.slug === 'ux-doc')).toMatchObject({ retired: true });
    } finally {
      await stores.dispose();
    }
  });
});
