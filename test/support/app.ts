/** A built app on fresh test stores, plus helpers to call it as a given identity. */
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type Gaffer } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { Clock } from '../../src/platform/clock.js';
import { CEO_IDENTITY } from '../../src/platform/http/auth/identity.js';
import { staticToken } from '../../src/platform/http/auth/tokens.js';
import { createTestStores, type TestPlatform, type TestStores } from './stores.js';

export interface TestApp extends Gaffer {
  platform: TestPlatform;
  stores: TestStores;
  /** Headers that authenticate as the CEO (static token, no X-Agent-ID needed). */
  ceoHeaders: Record<string, string>;
  /** Headers that authenticate as any identity. */
  headersFor(id: string, role: string, team?: string): Record<string, string>;
  /**
   * Closes the app and its platform. Stores the test app created itself are disposed too; stores
   * passed in (to restart on the same data) stay until their owner calls `stores.dispose()`.
   */
  close(): Promise<void>;
}

export async function startTestApp(
  options: { config?: Partial<Config>; clock?: Clock; stores?: TestStores } = {},
): Promise<TestApp> {
  const ownsStores = !options.stores;
  const stores = options.stores ?? (await createTestStores());
  const platform = await stores.platform({ config: options.config, clock: options.clock });
  const gaffer = await buildApp(platform, { logger: false });
  await gaffer.app.ready();
  const headersFor = identityHeaders(platform.secret);
  return {
    ...gaffer,
    platform,
    stores,
    ceoHeaders: { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) },
    headersFor,
    async close() {
      await gaffer.app.close();
      await platform.close();
      if (ownsStores) await stores.dispose();
    },
  };
}

/** Headers that authenticate as an identity (X-Agent-* and its static token), for a platform secret. */
export function identityHeaders(secret: string) {
  return (id: string, role: string, team = ''): Record<string, string> => ({
    'x-agent-id': id,
    'x-agent-role': role,
    ...(team ? { 'x-agent-team': team } : {}),
    'x-agent-token': staticToken(secret, { id, role, team }),
  });
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}
