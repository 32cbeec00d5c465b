/** The collision map: a task's declared surface and overlapping same-parent siblings. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { TasksModule } from '../tasks/index.js';
import { registerCollisionMapRoutes } from './routes.js';
import { CollisionMapService } from './service.js';

export { type CollisionSurface, findCollisions, hasCollisionSurface } from './collisions.js';
export { compileGlob, globMatchesPath, globsOverlap, overlappingGlobs } from './glob-overlap.js';
export type { CollidingSibling, CollisionMap } from './service.js';
export { CollisionMapService };

export interface CollisionMapModule extends ModuleFace {
  service: CollisionMapService;
}

/** What this module is handed: the outside faces of the modules it uses. */
export interface CollisionMapDeps {
  tasks: TasksModule;
}

export function createCollisionMapModule({ platform }: ModuleInput<CollisionMapDeps>): CollisionMapModule {
  const service = new CollisionMapService(platform);
  return { service, registerRoutes: (app) => registerCollisionMapRoutes(app, service) };
}
