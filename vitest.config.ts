import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { builtModules, runBuilt } from './test/support/run-built.js';
import { testGroups } from './test/support/test-groups.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const groups = testGroups(root);
/** GAFFER_TEST_ONLY=servers narrows a run to the store-touching files (CI's PostgreSQL + Redis pass). */
const only = process.env.GAFFER_TEST_ONLY;
if (only && only !== 'servers') throw new Error(`GAFFER_TEST_ONLY must be "servers" (got "${only}")`);

const mocking = new Set(groups.mocking);

/**
 * The unit files share a module graph per worker thread (imports were most of their time), except
 * the files that replace a module, which get one of their own.
 */
const unit: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'unit',
      pool: 'threads',
      isolate: false,
      include: groups.unit.filter((f) => !mocking.has(f)),
    },
  },
  {
    extends: true,
    test: { name: 'unit-mocks', pool: 'threads', include: groups.unit.filter((f) => mocking.has(f)) },
  },
];

/**
 * The integration files stay isolated: what a file's servers and timers leave behind must not slow
 * or break the next. They run the build of the sources (run-built.ts) — except the few that replace
 * a module, which only the module runner can do.
 */
const integrationFiles = only ? groups.servers : groups.integration;
const integration: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    plugins: [runBuilt(root)],
    test: {
      name: 'integration',
      pool: 'forks',
      include: integrationFiles.filter((f) => !mocking.has(f)),
      server: { deps: { external: [builtModules(root)] } },
      // dist/ is emitted before any file runs; spawned `gaffer` commands run it too.
      globalSetup: ['test/support/build-gaffer.ts'],
    },
  },
  {
    extends: true,
    test: {
      name: 'integration-mocks',
      pool: 'forks',
      include: integrationFiles.filter((f) => mocking.has(f)),
    },
  },
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // Vitest's default is one worker fewer than the cores, which left one of this 2-core machine's
    // cores idle; a run keeps both busy (measured at 99 % CPU), so more workers would not help.
    maxWorkers: 2,
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache): a worker reads
    // them instead of asking the main process, and CI's second pass starts warm.
    experimental: { fsModuleCache: true },
    projects: [...(only ? [] : unit), ...integration],
  },
});
