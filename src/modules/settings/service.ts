/**
 * The settings store: reads a key's persisted value (or its catalogue default), validates and
 * upserts writes. `set` is the write the API offers and refuses internal keys; `setInternal` is for
 * the modules that keep internal state here (pause records and the like) and may write any key.
 */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { AppError, notFound, unprocessable } from '../../platform/http/errors.js';
import type { CATALOGUE } from './catalogue.js';
import type { SettingsCatalogue } from './catalogue-lookup.js';
import {
  type Definitions,
  isFamily,
  type KeyIn,
  type SettingDefinition,
  type ValueFor,
} from './definition.js';
import {
  readStoredSetting,
  readStoredSettings,
  type StoredSetting,
  upsertSetting,
} from './settings-store.js';

/** A setting as it stands: its value and where that value came from. */
export interface SettingRecord<V = unknown> {
  readonly key: string;
  readonly definition: SettingDefinition;
  readonly value: V;
  /** False when nothing (valid) is stored and `value` is the catalogue default. */
  readonly stored: boolean;
  readonly updatedAt: Date | null;
  readonly updatedBy: string | null;
}

export class SettingsService<C extends Definitions = typeof CATALOGUE> {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly catalogue: SettingsCatalogue<C>,
  ) {}

  /** Every setting with an exact key, in catalogue order, then every stored member of a family. */
  async list(): Promise<SettingRecord[]> {
    const stored = await readStoredSettings(this.db);
    const byKey = new Map(stored.map((setting) => [setting.key, setting]));
    const records = this.catalogue.exactDefinitions.map((definition) =>
      this.toRecord(definition.key, definition, byKey.get(definition.key)),
    );
    for (const setting of stored) {
      const definition = this.catalogue.resolve(setting.key);
      if (definition && isFamily(definition)) records.push(this.toRecord(setting.key, definition, setting));
    }
    return records;
  }

  /** One setting; 404 when the catalogue does not know the key. */
  async read(key: string): Promise<SettingRecord> {
    const definition = this.catalogue.resolve(key);
    if (!definition) throw notFound(`there is no setting "${key}"`);
    return this.toRecord(key, definition, await readStoredSetting(this.db, key));
  }

  /** The persisted value of `key`, or its default. */
  async get<K extends KeyIn<C>>(key: K): Promise<ValueFor<C, K>> {
    return (await this.read(key)).value as ValueFor<C, K>;
  }

  /**
   * The API's write: 422 `unknown_setting`, 422 `setting_not_writable` for internal keys, 422
   * `validation_failed` with `body.value` field details when the value does not fit the schema.
   */
  async set(key: string, value: unknown, updatedBy: string): Promise<SettingRecord> {
    const definition = this.definitionForWrite(key);
    if (!definition.writable) {
      throw new AppError(
        422,
        'setting_not_writable',
        `setting "${key}" is internal state and cannot be changed here`,
      );
    }
    return this.write(key, definition, value, updatedBy, 'body.value');
  }

  /** A write from inside the service, allowed for every key, internal ones included. */
  async setInternal<K extends KeyIn<C>>(
    key: K,
    value: ValueFor<C, K>,
    updatedBy: string,
  ): Promise<SettingRecord<ValueFor<C, K>>> {
    const record = await this.write(key, this.definitionForWrite(key), value, updatedBy, 'value');
    return record as SettingRecord<ValueFor<C, K>>;
  }

  private definitionForWrite(key: string): SettingDefinition {
    const definition = this.catalogue.resolve(key);
    if (!definition) throw new AppError(422, 'unknown_setting', `there is no setting "${key}"`, { key });
    return definition;
  }

  private async write(
    key: string,
    definition: SettingDefinition,
    value: unknown,
    updatedBy: string,
    fieldRoot: string,
  ): Promise<SettingRecord> {
    const problems =
      value === undefined
        ? [{ field: fieldRoot, message: 'is required' }]
        : this.catalogue.validate(definition, value, fieldRoot);
    if (problems.length > 0) throw unprocessable(`the value does not fit setting "${key}"`, problems);
    const setting: StoredSetting = { key, value, updatedBy, updatedAt: this.clock.now() };
    await upsertSetting(this.db, setting);
    return this.toRecord(key, definition, setting);
  }

  /** A stored value that no longer fits the catalogue (a schema that changed) reads as the default. */
  private toRecord(
    key: string,
    definition: SettingDefinition,
    stored: StoredSetting | undefined,
  ): SettingRecord {
    const valid =
      stored !== undefined && this.catalogue.validate(definition, stored.value, 'value').length === 0;
    return {
      key,
      definition,
      value: valid ? stored.value : definition.default,
      stored: valid,
      updatedAt: valid ? stored.updatedAt : null,
      updatedBy: valid ? stored.updatedBy : null,
    };
  }
}
