/**
 * The catalogue as the service uses it: resolves a key to the entry that governs it (exact keys
 * first, then the longest matching family), validates values against that entry's compiled
 * schema, and refuses a malformed catalogue when it is built (at boot, in createSettings, so a
 * bad entry fails the app and every app test rather than a request).
 */
import type { FieldProblem } from '../../platform/http/errors.js';
import { type Definitions, familyPrefix, isFamily, type SettingDefinition } from './definition.js';
import { compileValueValidator, type ValueValidator } from './value-validator.js';

const KEY = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;
const FAMILY_KEY = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\.\*$/;
/** What may follow a family's prefix: `maintenance_pause.` + `dispatch`. */
const MEMBER_NAME = /^[a-z0-9_][a-z0-9_.-]{0,99}$/;

export class SettingsCatalogue<C extends Definitions = Definitions> {
  readonly definitions: C;
  private readonly byKey = new Map<string, SettingDefinition>();
  private readonly families: SettingDefinition[];
  private readonly validators = new Map<SettingDefinition, ValueValidator>();

  constructor(definitions: C) {
    this.definitions = definitions;
    for (const definition of definitions) {
      if (this.byKey.has(definition.key))
        throw new Error(`settings catalogue: "${definition.key}" is declared twice`);
      this.byKey.set(definition.key, definition);
      this.validators.set(definition, compileValueValidator(definition.schema));
      checkDefinition(definition, this.validate(definition, definition.default, 'default'));
    }
    // Longest prefix first, so `a.b.*` wins over `a.*` for `a.b.c`.
    this.families = definitions
      .filter((definition) => isFamily(definition))
      .sort((x, y) => y.key.length - x.key.length);
  }

  /** The entry governing `key`, or undefined when the catalogue does not know it. */
  resolve(key: string): SettingDefinition | undefined {
    const exact = this.byKey.get(key);
    if (exact && !isFamily(exact)) return exact;
    for (const family of this.families) {
      const prefix = familyPrefix(family);
      if (key.startsWith(prefix) && MEMBER_NAME.test(key.slice(prefix.length))) return family;
    }
    return undefined;
  }

  /** Entries with exact keys (every setting that exists whether or not it was ever stored). */
  get exactDefinitions(): SettingDefinition[] {
    return this.definitions.filter((definition) => !isFamily(definition));
  }

  get flagDefinitions(): SettingDefinition[] {
    return this.definitions.filter((definition) => definition.kind === 'flag');
  }

  /** Problems with `value` for this entry, rooted at `fieldRoot` (`body.value`, `value`); empty when valid. */
  validate(definition: SettingDefinition, value: unknown, fieldRoot: string): FieldProblem[] {
    const validator = this.validators.get(definition);
    if (!validator) throw new Error(`settings catalogue: "${definition.key}" is not part of this catalogue`);
    return validator(value, fieldRoot);
  }
}

function checkDefinition(definition: SettingDefinition, defaultProblems: FieldProblem[]): void {
  const { key, kind, writable, schema } = definition;
  const fail = (why: string) => {
    throw new Error(`settings catalogue: "${key}" ${why}`);
  };
  const family = isFamily(definition);
  if (!(family ? FAMILY_KEY : KEY).test(key))
    fail('is not a valid key (lower_snake_case segments joined by dots)');
  if (family && writable)
    fail('is a family of keys; families hold internal state and must be writable: false');
  if (kind === 'flag') {
    if (family) fail('is a flag; flags must be exact keys');
    if ((schema as { type?: unknown }).type !== 'boolean')
      fail('is a flag; its schema must be Type.Boolean()');
  }
  if (defaultProblems.length > 0)
    fail(`has a default that does not match its schema: ${defaultProblems[0]?.message}`);
}
