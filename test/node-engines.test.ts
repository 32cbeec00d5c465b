/**
 * `npm ci` on Node 24 (the line the suite runs on, scripts/node24.sh) must be free of EBADENGINE
 * warnings with no exception, on Node 20 but for the agent CLIs' installers; and package.json's
 * `engines.node` must be true: every Node version it allows must be one every locked package supports.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const pkg = read('package.json') as { engines: { node: string } };
const lock = read('package-lock.json') as {
  packages: Record<string, { engines?: unknown; version?: string }>;
};

/** Every locked package (not the root) with the Node range it declares. */
const declared = Object.entries(lock.packages).flatMap(([path, entry]) => {
  const node = (entry.engines as { node?: unknown } | undefined)?.node;
  return path && typeof node === 'string'
    ? [{ name: `${path.replace(/^.*node_modules\//, '')}@${entry.version}`, node }]
    : [];
});

/**
 * Packages whose Node range covers only an install script, not the program: the agent CLIs the
 * end-to-end suites run are native binaries, and their installer works on every Node we allow
 * (test/agent-cli-claude.test.ts runs the installed CLI). `npm ci` on Node 20 warns EBADENGINE for
 * these and only these.
 */
const NATIVE_BINARIES = ['@anthropic-ai/claude-code'];
const isNative = (name: string) => NATIVE_BINARIES.some((pkg) => name.startsWith(`${pkg}@`));

/** The locked packages whose range does not hold every version in `range`, named with their range. */
const offenders = (range: string) =>
  declared
    .filter((p) => !semver.subset(range, p.node, { includePrerelease: false }) && !isNative(p.name))
    .map((p) => `${p.name} (${p.node})`);

describe('Node engines', () => {
  it('package.json allows Node 20.19, and the lock records the same range', () => {
    expect(semver.satisfies('20.19.0', pkg.engines.node)).toBe(true);
    expect(lock.packages['']?.engines).toEqual(pkg.engines);
    expect(declared.length).toBeGreaterThan(50);
  });

  it('every locked package supports every Node 20 that package.json allows (no EBADENGINE on Node 20)', () => {
    const node20 = new semver.Range(pkg.engines.node).set
      .map((comparators) => `${comparators.map((c) => c.value).join(' ')} >=20.0.0 <21.0.0-0`.trim())
      .filter((range) => semver.validRange(range) && semver.intersects(range, '20.x'))
      .join(' || ');
    expect(node20, 'package.json must allow a Node 20').not.toBe('');
    expect(offenders(node20)).toEqual([]);
  });

  it('every locked package supports the Node 24 the suite runs on (no EBADENGINE on Node 24, no exception)', () => {
    const line = /LINE="(\d+\.\d+)"/.exec(
      readFileSync(new URL('../scripts/node24.sh', import.meta.url), 'utf8'),
    )?.[1];
    expect(line).toMatch(/^24\./);
    const node24 = `${line}.0`;
    expect(semver.satisfies(node24, pkg.engines.node)).toBe(true);
    expect(
      declared.filter((p) => !semver.satisfies(node24, p.node)).map((p) => `${p.name} (${p.node})`),
    ).toEqual([]);
  });

  it("package.json's engines.node is true: every locked package supports every Node it allows", () => {
    expect(offenders(pkg.engines.node)).toEqual([]);
  });

  it('names only native binaries as exceptions, each still locked and shipping a native program', () => {
    for (const name of NATIVE_BINARIES) {
      const entry = lock.packages[`node_modules/${name}`] as { bin?: Record<string, string> } | undefined;
      expect(entry, `${name} is no longer locked: drop the exception`).toBeDefined();
      expect(
        Object.values(entry?.bin ?? {}).every((bin) => !/\.(c|m)?js$/.test(bin)),
        name,
      ).toBe(true);
    }
  });
});
