/**
 * One composition shape (issue 16): checked on the real source tree, and on small trees that break
 * it, so the check is known to fail when it should.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from './support/import-graph.js';
import { faceViolations } from './support/module-faces.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the module faces of src/', () => {
  const files = readSources(root, 'src');

  it('is read from the real tree (every module folder has its index.ts)', () => {
    const faces = [...files.keys()].filter((path) => /^src\/modules\/[^/]+\/index\.ts$/.test(path));
    expect(faces.length).toBeGreaterThan(30);
  });

  it('has one shape: create…({ platform, deps }) returning a ModuleFace, and no onReady/onClose hook in a module', () => {
    expect(faceViolations(files)).toEqual([]);
  });
});

describe('the shape check', () => {
  const tree = (files: Record<string, string>) => faceViolations(new Map(Object.entries(files)));
  const good = `
    export interface KanbanModule extends ModuleFace { service: KanbanService }
    export function createKanbanModule({ platform }: ModuleInput): KanbanModule { return make(platform); }`;

  it('accepts a module of the shape', () => {
    expect(tree({ 'src/modules/kanban/index.ts': good })).toEqual([]);
  });

  it('refuses a face that does not extend ModuleFace, naming the file', () => {
    const text = `
      export interface KanbanModule { service: KanbanService; registerRoutes(app: FastifyInstance): void }
      export function createKanbanModule({ platform }: ModuleInput): KanbanModule { return make(platform); }`;
    expect(tree({ 'src/modules/kanban/index.ts': text })).toEqual([
      'src/modules/kanban/index.ts: createKanbanModule returns KanbanModule, which does not extend ModuleFace',
    ]);
  });

  it('refuses a factory taking (platform, deps) positionally', () => {
    const text = `
      export interface TasksModule extends ModuleFace { service: TasksService }
      export async function createTasksModule(platform: Platform, deps: TasksDeps): Promise<TasksModule> { return make(); }`;
    expect(tree({ 'src/modules/tasks/index.ts': text })).toEqual([
      'src/modules/tasks/index.ts: createTasksModule does not take { platform, deps }: ModuleInput<…> first',
    ]);
  });

  it('refuses a module starting or stopping work in an app hook, wherever in the module', () => {
    const hooked = `
      export interface KanbanModule extends ModuleFace { service: KanbanService }
      export function createKanbanModule({ platform }: ModuleInput): KanbanModule {
        return { registerRoutes(app) { app.addHook('onClose', async () => stop()); } };
      }`;
    expect(
      tree({
        'src/modules/kanban/index.ts': hooked,
        'src/modules/engines/release/routes.ts': "app.addHook( 'onReady', () => manager.start());",
        'src/modules/runtime/test-runtime-app.ts': "app.addHook('onClose', () => runtime.close());",
        'src/app.ts': "app.addHook('onClose', () => scheduler.stop());",
        'src/modules/registry.ts': "app.addHook('onReady', async () => startModules(inOrder));",
      }),
    ).toEqual([
      "src/modules/kanban/index.ts: adds an onClose hook; start or stop work in the module face's start/stop",
      "src/modules/engines/release/routes.ts: adds an onReady hook; start or stop work in the module face's start/stop",
    ]);
  });

  it('refuses a module folder without a factory, and leaves the listed non-modules alone', () => {
    expect(
      tree({
        'src/modules/kanban/index.ts': "export { KANBAN_STATES } from './board.js';",
        'src/modules/lifecycle/index.ts': "export { TASK_STATUSES } from './states.js';",
      }),
    ).toEqual(['src/modules/kanban/index.ts: no exported create… factory']);
  });
});
