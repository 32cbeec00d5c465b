/**
 * An app booted with engine feature flags on. Flags apply at boot, so this persists them through
 * the settings store, then restarts the app on the same stores, as an operator would.
 */
import type { Config } from '../../src/config.js';
import type { Clock } from '../../src/platform/clock.js';
import { startTestApp, type TestApp } from './app.js';
import { createTestStores, type TestStores } from './stores.js';

export type EngineFlag = 'ci_watch' | 'dep_update' | 'release_manager' | 'provisioning';

export async function startAppWithFlags(
  flags: readonly EngineFlag[],
  options: { config?: Partial<Config>; clock?: Clock; stores?: TestStores } = {},
): Promise<TestApp> {
  const ownsStores = !options.stores;
  const stores = options.stores ?? (await createTestStores());
  const first = await startTestApp({ stores, config: options.config });
  for (const flag of flags) await first.settings.service.set(flag, true, 'ceo');
  await first.close();
  const app = await startTestApp({ stores, config: options.config, clock: options.clock });
  return {
    ...app,
    async close() {
      await app.close();
      if (ownsStores) await stores.dispose();
    },
  };
}
