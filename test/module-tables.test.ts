/**
 * Modules talk through named reads, not tables: a file of one module that imports another module's
 * table (outside a schema.ts foreign key) fails here, naming the file and the table. The 36 reads
 * that predated the rule have all been paid off.
 */
import { describe, expect, it } from 'vitest';
import { readSources } from './support/import-graph.js';
import { crossModuleTableReads, tablesOnFaces } from './support/module-tables.js';

describe('modules read each other through named reads, not tables', () => {
  const sources = readSources(process.cwd(), 'src');

  it('has no module reading another module’s table (use or add a read function in the owner’s index.ts)', () => {
    expect(crossModuleTableReads(sources)).toEqual([]);
  });

  it('has no module offering its tables on its face (tests and foreign keys import the schema.ts)', () => {
    expect(tablesOnFaces(sources)).toEqual([]);
  });

  it('finds a table on a face, and not a type or a read beside it', () => {
    const files = new Map([
      ['src/modules/tasks/schema.ts', "export const tasks = pgTable('tasks', {});"],
      [
        'src/modules/tasks/index.ts',
        "export { type Task, tasks } from './schema.js';\nexport { taskExists } from './reads.js';",
      ],
    ]);
    expect(tablesOnFaces(files)).toEqual(['src/modules/tasks/index.ts: tasks']);
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
