/**
 * Which test file runs where, decided from the source tree (by what each file reaches through its
 * imports), so that nobody keeps a list by hand:
 *
 * - `servers`: files that reach code reading GAFFER_TEST_DATABASE_URL or GAFFER_TEST_REDIS_URL
 *   (test/support/stores.ts, or a file reading them itself). Only these behave differently against
 *   real PostgreSQL and Redis, so only these run in CI's second pass — except the browser tests
 *   (`browser`): the panel reaches the stores only through the HTTP API, whose every route the API
 *   tests run on both stores, so what a browser test adds (layout, focus, contrast, the panel's own
 *   logic) is the same on either and is checked once, in the embedded pass.
 * - `unit`: tests beside the code (src/, panel/src/) that open no store of any kind (no PGlite
 *   either), start no browser and no Gaffer process — the inner loop, `npm run test:unit`.
 * - everything else is `integration`.
 *
 * CI cross-checks `servers` at run time: the embedded pass records every file that opened test
 * stores (GAFFER_TEST_STORE_LOG, written by stores.ts) and fails when one is not in `servers`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importEdges, readSources } from './import-graph.js';

export interface TestGroups {
  unit: string[];
  /** Files that replace a module (`vi.mock`), of either group: they need a module graph of their own. */
  mocking: string[];
  integration: string[];
  /** The store-touching files, a subset of `integration`: CI's PostgreSQL + Redis pass. */
  servers: string[];
  /** The files that drive a browser: store-touching, but only through the API (not in `servers`). */
  browser: string[];
}

/** Where the test suites live, relative to the repository root. */
export const TEST_ROOTS = ['src', 'test', 'panel/src'] as const;
/** Trees a test may import helpers from, besides the test roots. */
const HELPER_ROOTS = ['scripts', 'bench'] as const;

const isTestFile = (path: string) => path.endsWith('.test.ts');
/** Reads the URLs of the real servers: behaves differently in the PostgreSQL + Redis pass. */
const READS_SERVER_URLS = /process\.env\.GAFFER_TEST_(DATABASE|REDIS)_URL/;
/** Opens a store (PGlite included) or starts a browser or a Gaffer process. */
const HEAVY = [
  READS_SERVER_URLS,
  /\bopenDatabase\(/,
  /\bnew PGlite\(|\bPGlite\.create\(/,
  /from ['"]playwright-core['"]/,
  /\bdist\/main\.js\b/,
];
const MOCKS_MODULES = /\bvi\.mock\(/;
const DRIVES_A_BROWSER = /from ['"]playwright-core['"]/;
/** Where openDatabase is defined, not called. */
const DEFINES_STORES = new Set(['src/platform/db/client.ts']);

/** The groups of the test files found in `files` (path → text, paths relative to the root). */
export function groupTestFiles(files: Map<string, string>): TestGroups {
  const imports = new Map<string, string[]>();
  for (const edge of importEdges(files)) {
    if (!files.has(edge.to)) continue;
    imports.set(edge.from, [...(imports.get(edge.from) ?? []), edge.to]);
  }
  const reaches = (start: string, test: (path: string, text: string) => boolean): boolean => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length) {
      const path = stack.pop()!;
      if (seen.has(path)) continue;
      seen.add(path);
      if (test(path, files.get(path) ?? '')) return true;
      stack.push(...(imports.get(path) ?? []));
    }
    return false;
  };
  const groups: TestGroups = { unit: [], mocking: [], integration: [], servers: [], browser: [] };
  const tests = [...files.keys()].filter(isTestFile).sort();
  for (const path of tests) {
    const beside = !path.startsWith('test/');
    const heavy = reaches(path, (at, text) => !DEFINES_STORES.has(at) && HEAVY.some((re) => re.test(text)));
    if (beside && !heavy) groups.unit.push(path);
    else groups.integration.push(path);
    if (MOCKS_MODULES.test(files.get(path)!)) groups.mocking.push(path);
    if (reaches(path, (_, text) => DRIVES_A_BROWSER.test(text))) groups.browser.push(path);
    else if (reaches(path, (_, text) => READS_SERVER_URLS.test(text))) groups.servers.push(path);
  }
  return groups;
}

/** The groups of the real tree under `root`. */
export function testGroups(root: string): TestGroups {
  const files = new Map<string, string>();
  for (const dir of [...TEST_ROOTS, ...HELPER_ROOTS]) {
    if (!existsSync(join(root, dir))) continue;
    for (const [path, text] of readSources(root, dir)) files.set(path, text);
  }
  return groupTestFiles(files);
}

/**
 * Files a store log names (one absolute or root-relative path a line) that the second pass leaves
 * out: in neither `servers` nor `browser`.
 */
export function storeUsersLeftOut(
  root: string,
  log: string,
  groups: Pick<TestGroups, 'servers' | 'browser'>,
): string[] {
  const listed = new Set([...groups.servers, ...groups.browser]);
  const prefix = `${root.replace(/\/$/, '')}/`;
  const used = readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line));
  return [...new Set(used)].filter((path) => !listed.has(path)).sort();
}
