/**
 * CI runs the PostgreSQL + Redis pass over the store-touching files only, and `npm run test:unit`
 * over the light files only: both lists are decided from the tree, so a file that would be left out
 * of the pass it needs is a bug here, not a choice.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from './support/import-graph.js';
import { groupTestFiles, storeUsersLeftOut, TEST_ROOTS, testGroups } from './support/test-groups.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// Built from parts, so this file is not itself read as one that reads the servers' URLs or drives a browser.
const readsDatabaseUrl = `const url = process.env.${'GAFFER_TEST_DATABASE_URL'};`;
const readsRedisUrl = `const url = process.env.${'GAFFER_TEST_REDIS_URL'};`;
const drivesABrowser = `import { chromium } from '${'playwright-core'}';`;

describe('the test groups of a tree', () => {
  const groups = groupTestFiles(
    new Map(
      Object.entries({
        'test/support/stores.ts': readsDatabaseUrl,
        'test/support/app.ts': "import { createTestStores } from './stores.js';",
        'test/api.test.ts': "import { startTestApp } from './support/app.js';",
        'test/pure-cli.test.ts': "import { x } from '../src/rules.js';",
        'src/rules.ts': 'export const x = 1;',
        'src/rules.test.ts': "import { x } from './rules.js';",
        'src/cache/redis.test.ts': readsRedisUrl,
        'src/db/turns.test.ts': "import { PGlite } from '@electric-sql/pglite';\nawait PGlite.create();",
        'src/db/opens.test.ts': "import { open } from './open-helper.js';",
        'src/db/open-helper.ts': "export const open = () => openDatabase({ dataDir: 'x' });",
        'src/tokens.test.ts': `vi.${'mock'}('node:crypto');`,
        'src/helper-test-app.test.ts': "import { startTestApp } from '../test/support/app.js';",
        'panel/src/format.test.ts': 'export {};',
        'test/support/browser.ts': drivesABrowser,
        'test/panel/page.test.ts':
          "import './../support/browser.js';\nimport { startTestApp } from '../support/app.js';",
      }),
    ),
  );

  it('sends every file that reaches the servers’ URLs, directly or through helpers, to the second pass', () => {
    expect(groups.servers).toEqual([
      'src/cache/redis.test.ts',
      'src/helper-test-app.test.ts',
      'test/api.test.ts',
    ]);
  });

  it('runs the browser tests once: they reach the stores only through the API', () => {
    expect(groups.browser).toEqual(['test/panel/page.test.ts']);
  });

  it('keeps stores (PGlite too), helpers that open them and everything under test/ out of the unit files', () => {
    expect(groups.unit).toEqual(['panel/src/format.test.ts', 'src/rules.test.ts', 'src/tokens.test.ts']);
    expect(groups.integration).toEqual([
      'src/cache/redis.test.ts',
      'src/db/opens.test.ts',
      'src/db/turns.test.ts',
      'src/helper-test-app.test.ts',
      'test/api.test.ts',
      'test/panel/page.test.ts',
      'test/pure-cli.test.ts',
    ]);
    expect(groups.mocking).toEqual(['src/tokens.test.ts']);
  });
});

describe('the test groups of the real tree', () => {
  const groups = testGroups(root);
  const tests = TEST_ROOTS.flatMap((dir) => [...readSources(root, dir).keys()]).filter((path) =>
    path.endsWith('.test.ts'),
  );

  it('puts every test file in exactly one of unit and integration', () => {
    expect(tests.length).toBeGreaterThan(250);
    expect([...groups.unit, ...groups.integration].sort()).toEqual([...tests].sort());
  });

  it('sends every file that names the store helpers to the PostgreSQL + Redis pass, but the browser tests', () => {
    const namesStores =
      /createTestStores|openTestDatabase|startTestApp|startListeningCompany|support\/stores/;
    const sources = new Map([...TEST_ROOTS].flatMap((dir) => [...readSources(root, dir)]));
    const self = 'test/test-groups.test.ts'; // names them in its fixtures
    const naming = tests.filter((path) => path !== self && namesStores.test(sources.get(path)!));
    expect(naming.length).toBeGreaterThan(80);
    const placed = [...groups.servers, ...groups.browser];
    expect(naming.filter((path) => !placed.includes(path))).toEqual([]);
    expect(groups.browser.every((path) => path.startsWith('test/panel/'))).toBe(true);
  });

  it('names the files of a run’s store log that the second pass would leave out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gaffer-store-log-'));
    try {
      const log = join(dir, 'store-users.log');
      writeFileSync(
        log,
        `${root}test/ready.test.ts\n${root}test/ready.test.ts\n${root}test/panel/inbox.test.ts\n${root}test/cli.test.ts\n`,
      );
      expect(storeUsersLeftOut(root, log, groups)).toEqual(['test/cli.test.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
