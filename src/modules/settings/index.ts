/**
 * The settings module's outside face: the settings store (`service`), the feature flags this
 * process booted with (`flags`), and the /api/settings routes. Other modules import only this file.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import { CATALOGUE } from './catalogue.js';
import { SettingsCatalogue } from './catalogue-lookup.js';
import { FeatureFlags } from './feature-flags.js';
import { registerSettingsRoutes } from './routes.js';
import { SettingsService } from './service.js';

export { CATALOGUE, type FlagKey, type SettingKey, type SettingValue } from './catalogue.js';
export type { SettingDefinition, SettingKind } from './definition.js';
export { FeatureFlags, type FlagStatus, RESTART_NOTE } from './feature-flags.js';
export { type SettingRecord, SettingsService } from './service.js';

export interface SettingsModule extends ModuleFace {
  readonly service: SettingsService;
  /** Effective feature flags: read once at boot, unchanged until the next restart. */
  readonly flags: FeatureFlags;
}

export async function createSettings({ platform }: ModuleInput): Promise<SettingsModule> {
  const service = new SettingsService(platform.database.db, platform.clock, new SettingsCatalogue(CATALOGUE));
  const flags = await FeatureFlags.load(service);
  return {
    service,
    flags,
    registerRoutes: (app) => registerSettingsRoutes(app, service, flags),
  };
}
