/**
 * An app booted with engine feature flags on. Flags apply at boot, so this persists them through
 * the settings store first (the settings module alone on the same stores, as the panel suites do),
 * then boots the app, as after an operator's restart.
 */
import type { Config } from '../../src/config.js';
import { createSettings } from '../../src/modules/settings/index.js';
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
  const platform = await stores.platform({ config: options.config });
  const settings = await createSettings({ platform, deps: {} });
  for (const flag of flags) await settings.service.set(flag, true, 'ceo');
  await platform.close();
  const app = await startTestApp({ stores, config: options.config, clock: options.clock });
  return {
    ...app,
    async close() {
      await app.close();
      if (ownsStores) await stores.dispose();
    },
  };
}
