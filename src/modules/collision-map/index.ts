/** The collision map: a task's declared surface and overlapping same-parent siblings. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { CollisionMapDeps } from '../registry.js';
import { registerCollisionMapRoutes } from './routes.js';
import { CollisionMapService } from './service.js';

export { type CollisionSurface, findCollisions, hasCollisionSurface } from './collisions.js';
export { compileGlob, globMatchesPath, globsOverlap, overlappingGlobs } from './glob-overlap.js';
export type { CollidingSibling, CollisionMap } from './service.js';
export { CollisionMapService };

export interface CollisionMapModule {
  service: CollisionMapService;
  registerRoutes(app: FastifyInstance): void;
}

export function createCollisionMapModule(platform: Platform, _deps: CollisionMapDeps): CollisionMapModule {
  const service = new CollisionMapService(platform);
  return { service, registerRoutes: (app) => registerCollisionMapRoutes(app, service) };
}
