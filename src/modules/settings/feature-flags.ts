/**
 * The feature flags this process booted with. The snapshot is taken once, when the settings module
 * is created; a flag changed through the API is persisted at once but becomes effective only on
 * the next restart, so `isEnabled` never changes during the life of a process.
 */
import type { CATALOGUE } from './catalogue.js';
import type { Definitions, FlagKeyIn } from './definition.js';
import type { SettingRecord, SettingsService } from './service.js';

/** A flag as the Feature Flags page shows it. */
export interface FlagStatus {
  readonly key: string;
  readonly label: string;
  readonly description: string;
  /** The stored value (or the default): what the next boot will use. */
  readonly persisted: boolean;
  /** The value this process booted with: what is in force now. */
  readonly effective: boolean;
  /** True when the two differ, i.e. a restart is needed for the stored value to apply. */
  readonly restartRequired: boolean;
}

export const RESTART_NOTE = 'Changes take effect on the next restart.' as const;

export class FeatureFlags<C extends Definitions = typeof CATALOGUE> {
  private constructor(private readonly booted: ReadonlyMap<string, boolean>) {}

  /** Reads every flag's persisted value (default false) once. */
  static async load<C extends Definitions>(service: SettingsService<C>): Promise<FeatureFlags<C>> {
    const records = await service.list();
    const booted = new Map<string, boolean>();
    for (const record of records) {
      if (record.definition.kind === 'flag') booted.set(record.key, record.value === true);
    }
    return new FeatureFlags<C>(booted);
  }

  /** The effective value of a flag: the one the process booted with. */
  isEnabled(key: FlagKeyIn<C>): boolean {
    return this.booted.get(key) ?? false;
  }

  /** Every flag's booted value, by key. */
  snapshot(): Record<string, boolean> {
    return Object.fromEntries(this.booted);
  }

  /** Joins a flag's stored record with its booted value; undefined for a setting that is not a flag. */
  status(record: SettingRecord): FlagStatus | undefined {
    if (record.definition.kind !== 'flag') return undefined;
    const persisted = record.value === true;
    const effective = this.booted.get(record.key) ?? false;
    return {
      key: record.key,
      label: record.definition.label,
      description: record.definition.description,
      persisted,
      effective,
      restartRequired: persisted !== effective,
    };
  }

  /** The status of every flag, in catalogue order. */
  async statuses(service: SettingsService<C>): Promise<FlagStatus[]> {
    const records = await service.list();
    return records.flatMap((record) => this.status(record) ?? []);
  }
}
