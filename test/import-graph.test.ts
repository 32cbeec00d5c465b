/**
 * The one-way module wiring of DESIGN.md §2, checked on the real source tree: each module declares
 * what it needs of the others and imports only their index.ts (or schema.ts); the registry composes
 * them and only the composition root imports it; platform/ knows nothing of modules/.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  fileCycles,
  importEdges,
  moduleCycles,
  REGISTRY,
  readSources,
  wiringViolations,
} from './support/import-graph.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the import graph of src/', () => {
  const edges = importEdges(readSources(root, 'src'));

  it('is read from the real tree (the registry and the module faces are found)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual(
      expect.objectContaining({ from: 'src/app.ts', to: 'src/modules/registry.ts' }),
    );
    expect(edges).toContainEqual(
      expect.objectContaining({ from: 'src/modules/registry.ts', to: 'src/modules/tasks/index.ts' }),
    );
  });

  it('keeps the wiring rules: no module imports the registry or another module’s internals, platform/ imports no module', () => {
    expect(wiringViolations(edges)).toEqual([]);
  });

  it('has no import cycle among the modules and the registry', () => {
    expect(moduleCycles(edges)).toEqual([]);
  });

  it('reads one way inside the gateway: the context (services, calls, results) at the bottom, no file imports back up', () => {
    expect(fileCycles(edges, 'src/modules/gateway/')).toEqual([]);
  });

  it('is the only tree that imports the registry: the suites, benchmarks and scripts do not', () => {
    const outside = ['test', 'bench', 'scripts'].flatMap((dir) => importEdges(readSources(root, dir)));
    expect(outside.length).toBeGreaterThan(100);
    expect(wiringViolations(outside.filter((edge) => edge.to === REGISTRY))).toEqual([]);
  });
});

describe('the wiring rules', () => {
  const tree = (files: Record<string, string>) => importEdges(new Map(Object.entries(files)));

  it('refuse a module importing the registry and name the file and the import', () => {
    const edges = tree({
      'src/app.ts': "import { createModules } from './modules/registry.js';",
      'src/modules/registry.ts': "import { createTasksModule } from './tasks/index.js';",
      'src/modules/tasks/index.ts': "import type { TasksDeps } from '../registry.js';",
    });
    expect(wiringViolations(edges)).toEqual([
      "src/modules/tasks/index.ts imports '../registry.js' (src/modules/registry.ts): only src/app.ts may import the module registry",
    ]);
    expect(moduleCycles(edges)).toEqual([
      "cycle registry → tasks → registry:\n    src/modules/registry.ts imports './tasks/index.js' (src/modules/tasks/index.ts)\n    src/modules/tasks/index.ts imports '../registry.js' (src/modules/registry.ts)",
    ]);
  });

  it('refuse reaching into another module, allow its index.ts and schema.ts, and anything inside one module', () => {
    const edges = tree({
      'src/modules/runtime/run-journal.ts': "import type { AgentLifecycle } from '../streams/events.js';",
      'src/modules/runtime/index.ts':
        "export * from './run-journal.js';\nimport { x } from '../streams/index.js';\nimport { t } from '../tasks/schema.js';",
      'src/modules/engines/release/plan.ts':
        "import { y } from '../../tasks/rules.js';\nimport { z } from '../deps.js';",
      'src/modules/streams/index.ts': '',
      'src/modules/streams/events.ts': '',
      'src/modules/tasks/schema.ts': '',
      'src/modules/tasks/rules.ts': '',
      'src/modules/engines/deps.ts': '',
    });
    expect(wiringViolations(edges)).toEqual([
      "src/modules/runtime/run-journal.ts imports '../streams/events.js' (src/modules/streams/events.ts): reaches into module streams; import src/modules/streams/index.ts",
      "src/modules/engines/release/plan.ts imports '../../tasks/rules.js' (src/modules/tasks/rules.ts): reaches into module tasks; import src/modules/tasks/index.ts",
    ]);
  });

  it('refuse platform/ importing modules/, even a module’s index.ts', () => {
    const edges = tree({
      'src/platform/http/auth/identity.ts':
        "import { rosterMember } from '../../../modules/agents/index.js';",
      'src/modules/agents/index.ts': '',
    });
    expect(wiringViolations(edges)).toEqual([
      "src/platform/http/auth/identity.ts imports '../../../modules/agents/index.js' (src/modules/agents/index.ts): platform/ must not import modules/",
    ]);
  });

  it('find a cycle among the files of one folder, type-only imports included', () => {
    const edges = tree({
      'src/modules/gateway/context.ts': "import type { CircuitBreaker } from './breaker.js';",
      'src/modules/gateway/breaker.ts': "import { VERBS } from './verbs/index.js';",
      'src/modules/gateway/verbs/index.ts': "import type { VerbCall } from '../context.js';",
    });
    expect(moduleCycles(edges)).toEqual([]);
    expect(fileCycles(edges, 'src/modules/gateway/')).toHaveLength(1);
    expect(fileCycles(edges, 'src/modules/gateway/')[0]).toMatch(
      /^cycle src\/modules\/gateway\/breaker\.ts → /,
    );
  });

  it('find a cycle between modules through their index files', () => {
    const edges = tree({
      'src/modules/a/index.ts': "import type { B } from '../b/index.js';",
      'src/modules/b/index.ts': "import type { C } from '../c/index.js';",
      'src/modules/c/index.ts': "export { A } from '../a/index.js';",
    });
    expect(wiringViolations(edges)).toEqual([]);
    expect(moduleCycles(edges)).toHaveLength(1);
    expect(moduleCycles(edges)[0]).toMatch(/^cycle a → b → c → a:/);
  });
});
