/**
 * What a catalogue entry is. A setting is either a feature flag (a boolean read once at boot) or a
 * plain value; its TypeBox schema is the single truth for what may be stored under its key.
 * A key ending in `.*` declares a family of internal keys (`maintenance_pause.*` covers
 * `maintenance_pause.dispatch`, `maintenance_pause.engines`, ...), all sharing one schema.
 */
import type { Static, TSchema } from 'typebox';

export type SettingKind = 'flag' | 'value';

export interface SettingDefinition<
  K extends string = string,
  Kind extends SettingKind = SettingKind,
  S extends TSchema = TSchema,
> {
  /** The exact key, or `prefix.*` for a family of internal keys. */
  readonly key: K;
  /** `flag`: a boolean feature flag, effective from the next restart. `value`: applies when read. */
  readonly kind: Kind;
  /** Short human name, shown in the panel. */
  readonly label: string;
  readonly description: string;
  /** What a value must look like; checked on every write. */
  readonly schema: S;
  /** The value when nothing is stored. */
  readonly default: Static<S>;
  /** False: internal state, changed only through the service (`setInternal`), never by `PUT`. */
  readonly writable: boolean;
}

/**
 * Declares one catalogue entry. Identity at runtime; at compile time it keeps the literal key and
 * the schema so the catalogue can give typed keys and values, and it checks `default` against it.
 */
export function defineSetting<const K extends string, const Kind extends SettingKind, S extends TSchema>(
  definition: SettingDefinition<K, Kind, S>,
): SettingDefinition<K, Kind, S> {
  return definition;
}

/** The key suffix that makes a definition a family. */
export const FAMILY_WILDCARD = '.*';

export const isFamily = (definition: SettingDefinition): boolean => definition.key.endsWith(FAMILY_WILDCARD);

/** `maintenance_pause.*` → `maintenance_pause.` */
export const familyPrefix = (definition: SettingDefinition): string => definition.key.slice(0, -1);

/** A list of definitions, as the catalogue declares them. */
export type Definitions = readonly SettingDefinition[];

/** The keys a definition stands for, as a type: a family `p.*` stands for every `p.<name>`. */
export type KeysOf<D> = D extends { key: `${infer P}${typeof FAMILY_WILDCARD}` }
  ? `${P}.${string}`
  : D extends { key: infer K extends string }
    ? K
    : never;

/** Every key a list of definitions accepts. */
export type KeyIn<C extends Definitions> = KeysOf<C[number]>;

/** The keys of the feature flags in a list of definitions. */
export type FlagKeyIn<C extends Definitions> = Extract<C[number], { kind: 'flag' }>['key'];

/** The definition that governs key `K`. */
export type DefinitionFor<C extends Definitions, K extends string> = C[number] extends infer D
  ? D extends unknown
    ? K extends KeysOf<D>
      ? D
      : never
    : never
  : never;

/** The type of the value stored under key `K`. */
export type ValueFor<C extends Definitions, K extends string> =
  DefinitionFor<C, K> extends { schema: infer S extends TSchema } ? Static<S> : never;
