/** The catalogue: the entries the spec asks for, and the checks that refuse a malformed entry. */
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from './catalogue.js';
import { SettingsCatalogue } from './catalogue-lookup.js';
import { defineSetting, type SettingDefinition } from './definition.js';

const value = (overrides: Partial<SettingDefinition>): SettingDefinition => ({
  key: 'some_value',
  kind: 'value',
  label: 'Some value',
  description: 'A value for a test.',
  schema: Type.String(),
  default: 'x',
  writable: true,
  ...overrides,
});

describe('the settings catalogue', () => {
  const catalogue = new SettingsCatalogue(CATALOGUE);

  it('declares the three engine flags with the labels of the spec, and the chat relay flag, all off by default', () => {
    const flags = catalogue.flagDefinitions.map(({ key, label, default: byDefault, writable }) => ({
      key,
      label,
      byDefault,
      writable,
    }));
    expect(flags).toEqual([
      { key: 'ci_watch', label: 'Multi-repo CI-watch', byDefault: false, writable: true },
      { key: 'dep_update', label: 'Dependency-update bot', byDefault: false, writable: true },
      { key: 'release_manager', label: 'Gated release manager', byDefault: false, writable: true },
      { key: 'telegram_enabled', label: 'Telegram chat relay', byDefault: false, writable: true },
      { key: 'provisioning', label: 'Pitch provisioning', byDefault: false, writable: true },
      { key: 'research', label: 'Web research', byDefault: false, writable: true },
    ]);
    for (const flag of catalogue.flagDefinitions) expect(flag.description.length).toBeGreaterThan(20);
  });

  it('declares ceo_name (1–60 characters) and transcript_retention_days (integer ≥ 1)', () => {
    const ceoName = catalogue.resolve('ceo_name')!;
    expect(ceoName.default).toBe('CEO');
    expect(catalogue.validate(ceoName, 'A'.repeat(60), 'value')).toEqual([]);
    expect(catalogue.validate(ceoName, 'A'.repeat(61), 'value')).toHaveLength(1);
    expect(catalogue.validate(ceoName, '', 'value')).toHaveLength(1);

    const retention = catalogue.resolve('transcript_retention_days')!;
    expect(retention.default).toBe(30);
    expect(catalogue.validate(retention, 1, 'value')).toEqual([]);
    expect(catalogue.validate(retention, 0, 'value')).toEqual([{ field: 'value', message: 'must be >= 1' }]);
    expect(catalogue.validate(retention, 1.5, 'value')).toHaveLength(1);
  });

  it('resolves exact keys, and family members to the longest matching family', () => {
    const internal = new SettingsCatalogue([
      value({ key: 'pause.*', writable: false }),
      value({ key: 'pause.deep.*', writable: false, default: 'deep' }),
      value({ key: 'pause.fixed' }),
    ]);
    expect(internal.resolve('pause.fixed')?.key).toBe('pause.fixed');
    expect(internal.resolve('pause.dispatch')?.key).toBe('pause.*');
    expect(internal.resolve('pause.deep.engines')?.key).toBe('pause.deep.*');
    expect(internal.resolve('pause.*')).toBeUndefined();
    expect(internal.resolve('pause.')).toBeUndefined();
    expect(internal.resolve('pause.Bad Name')).toBeUndefined();
    expect(internal.resolve('pausex')).toBeUndefined();
    expect(internal.exactDefinitions.map((d) => d.key)).toEqual(['pause.fixed']);
  });

  it('maps nested schema failures to field paths under the given root', () => {
    const record = new SettingsCatalogue([
      value({
        key: 'record.*',
        writable: false,
        schema: Type.Object({ mode: Type.Literal('drain') }, { additionalProperties: false }),
        default: { mode: 'drain' },
      }),
    ]);
    const definition = record.resolve('record.a')!;
    expect(record.validate(definition, { mode: 'drain', extra: 1 }, 'value')).toEqual([
      { field: 'value.extra', message: 'is not allowed' },
    ]);
    expect(record.validate(definition, {}, 'body.value')).toEqual([
      { field: 'body.value.mode', message: 'is required' },
    ]);
  });

  it('refuses a malformed catalogue', () => {
    const build =
      (...definitions: SettingDefinition[]) =>
      () =>
        new SettingsCatalogue(definitions);
    expect(build(value({}), value({}))).toThrow(/declared twice/);
    expect(build(value({ key: 'Bad-Key' }))).toThrow(/not a valid key/);
    expect(build(value({ key: 'family.*', writable: true }))).toThrow(/writable: false/);
    expect(build(value({ kind: 'flag', default: false, schema: Type.String() }))).toThrow(/Type.Boolean/);
    expect(
      build(value({ key: 'flags.*', kind: 'flag', schema: Type.Boolean(), default: false, writable: false })),
    ).toThrow(/exact keys/);
    expect(build(value({ default: 7 }))).toThrow(/default that does not match/);
  });

  it('makes a new entry one object literal, its default checked against its schema when compiling', () => {
    const entry = defineSetting({
      key: 'example_flag',
      kind: 'flag',
      label: 'Example',
      description: 'An example flag.',
      schema: Type.Boolean(),
      default: false,
      writable: true,
    });
    expect(new SettingsCatalogue([...CATALOGUE, entry]).resolve('example_flag')).toBe(entry);
    defineSetting({
      key: 'k',
      kind: 'value',
      label: 'l',
      description: 'd',
      schema: Type.Integer(),
      // @ts-expect-error the default must match the schema
      default: 'x',
      writable: true,
    });
  });
});
