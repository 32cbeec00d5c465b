/** The feature-flag snapshot: loaded once, effective until the next restart. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStores, type TestPlatform, type TestStores } from '../../../test/support/stores.js';
import { systemClock } from '../../platform/clock.js';
import { CATALOGUE } from './catalogue.js';
import { SettingsCatalogue } from './catalogue-lookup.js';
import { FeatureFlags } from './feature-flags.js';
import { SettingsService } from './service.js';

describe('FeatureFlags', () => {
  let stores: TestStores;
  let platform: TestPlatform;
  let service: SettingsService;

  beforeAll(async () => {
    stores = await createTestStores();
    platform = await stores.platform();
    service = new SettingsService(platform.database.db, systemClock, new SettingsCatalogue(CATALOGUE));
  });
  afterAll(async () => {
    await stores.dispose();
  });

  it('boots with every flag off, keeps its snapshot after a write, and the next load sees the write', async () => {
    const booted = await FeatureFlags.load(service);
    expect(booted.snapshot()).toEqual({
      ci_watch: false,
      dep_update: false,
      release_manager: false,
      telegram_enabled: false,
      provisioning: false,
      research: false,
    });

    await service.set('dep_update', true, 'ceo');
    expect(booted.isEnabled('dep_update')).toBe(false);
    const [, depUpdate] = await booted.statuses(service);
    expect(depUpdate).toEqual({
      key: 'dep_update',
      label: 'Dependency-update bot',
      description: expect.any(String),
      persisted: true,
      effective: false,
      restartRequired: true,
    });

    const rebooted = await FeatureFlags.load(service);
    expect(rebooted.isEnabled('dep_update')).toBe(true);
    expect(rebooted.isEnabled('ci_watch')).toBe(false);
    expect((await rebooted.statuses(service)).every((s) => !s.restartRequired)).toBe(true);
  });

  it('has no status for a setting that is not a flag', async () => {
    const flags = await FeatureFlags.load(service);
    expect(flags.status(await service.read('ceo_name'))).toBeUndefined();
    // @ts-expect-error only flag keys
    expect(flags.isEnabled('ceo_name')).toBe(false);
  });
});
