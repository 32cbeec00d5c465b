/**
 * A retired agent's tokens stop working. Authentication calls `agents.refuseRetired(identity)`
 * once the token has proven the identity (app.ts wires it as an onRequest hook after the auth
 * hook); this suite checks both token forms, by UUID and by slug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Gaffer } from '../src/app.js';
import { rosterMember } from '../src/modules/agents/index.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { expiringToken, staticToken } from '../src/platform/http/auth/tokens.js';
import { createTestStores, type TestPlatform, type TestStores } from './support/stores.js';

let stores: TestStores;
let platform: TestPlatform;
let gaffer: Gaffer;
beforeAll(async () => {
  stores = await createTestStores();
  platform = await stores.platform();
  gaffer = await buildApp(platform, { logger: false });
  await gaffer.app.ready();
});
afterAll(async () => {
  await gaffer.app.close();
  await stores.dispose();
});

const headers = (id: string, role: string, team: string, token?: string) => ({
  'x-agent-id': id,
  'x-agent-role': role,
  'x-agent-team': team,
  'x-agent-token': token ?? staticToken(platform.secret, { id, role, team }),
});
const call = (h: Record<string, string>) => gaffer.app.inject({ url: '/api/agents/be-qa', headers: h });

describe('retired agents and authentication', () => {
  it('refuses every token of a retired agent with 401 agent_retired; others keep working', async () => {
    const qa = rosterMember('fe-qa');
    const byUuid = headers(qa.id, 'qa', 'frontend');
    const bySlug = headers('fe-qa', 'qa', 'frontend');
    const expiring = headers(
      qa.id,
      'qa',
      'frontend',
      expiringToken(platform.secret, { id: qa.id, role: 'qa', team: 'frontend' }, 600),
    );
    for (const h of [byUuid, bySlug, expiring]) expect((await call(h)).statusCode).toBe(200);

    const ceoHeaders = { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) };
    const retire = await gaffer.app.inject({
      method: 'POST',
      url: '/api/agents/fe-qa/retire',
      headers: ceoHeaders,
    });
    expect(retire.statusCode).toBe(200);

    for (const h of [byUuid, bySlug, expiring]) {
      const response = await call(h);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('agent_retired');
    }
    const other = rosterMember('fe-dev-1');
    expect((await call(headers(other.id, 'developer', 'frontend'))).statusCode).toBe(200);
    expect((await call(ceoHeaders)).statusCode).toBe(200);
  });
});
