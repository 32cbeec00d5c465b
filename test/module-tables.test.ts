/**
 * Modules talk through named reads, not tables: a file of one module that imports another module's
 * table (outside a schema.ts foreign key) fails here, naming the file and the table. The reads that
 * predate the rule are listed below as debt to pay down; the list may only shrink — a read that
 * is gone must leave it, and a new one is refused.
 */
import { describe, expect, it } from 'vitest';
import { readSources } from './support/import-graph.js';
import { crossModuleTableReads } from './support/module-tables.js';

const KNOWN_DEBT = [
  'src/modules/dispatch/breaker.ts: tasks (tasks)',
  'src/modules/dispatch/budget-sweep.ts: tasks (tasks)',
  'src/modules/dispatch/candidates.ts: projects (projects)',
  'src/modules/dispatch/candidates.ts: tasks (tasks)',
  'src/modules/dispatch/kill-switch.ts: tasks (tasks)',
  'src/modules/dispatch/reaper.ts: tasks (tasks)',
  'src/modules/dispatch/spawner.ts: tasks (tasks)',
];

describe('modules read each other through named reads, not tables', () => {
  const reads = crossModuleTableReads(readSources(process.cwd(), 'src'));

  it('adds no new cross-module table read (use or add a read function in the owner’s index.ts)', () => {
    expect(reads.filter((read) => !KNOWN_DEBT.includes(read))).toEqual([]);
  });

  it('keeps the debt list honest: a read paid off leaves the list', () => {
    expect(KNOWN_DEBT.filter((read) => !reads.includes(read))).toEqual([]);
  });

  it('finds a table read through an index.ts and a schema.ts, and not a schema.ts foreign key', () => {
    const files = new Map([
      ['src/modules/tasks/schema.ts', "export const tasks = pgTable('tasks', {});"],
      [
        'src/modules/notes/schema.ts',
        "import { tasks } from '../tasks/schema.js';\nexport const notes = pgTable('notes', {});",
      ],
      [
        'src/modules/notes/service.ts',
        "import { tasks } from '../tasks/index.js';\nimport { notes } from './schema.js';",
      ],
      ['src/modules/notes/view.ts', "import { tasks as t } from '../tasks/schema.js';"],
      ['src/modules/notes/view.test.ts', "import { tasks } from '../tasks/index.js';"],
    ]);
    expect(crossModuleTableReads(files)).toEqual([
      'src/modules/notes/service.ts: tasks (tasks)',
      'src/modules/notes/view.ts: tasks (tasks)',
    ]);
  });
});
