/** The collision map: a task's declared surface and overlapping same-parent siblings. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { CollisionMapDeps } from '../registry.js';
import { CollisionMapService } from './service.js';

export { CollisionMapService };

export interface CollisionMapModule {
  service: CollisionMapService;
  registerRoutes(app: FastifyInstance): void;
}

export function createCollisionMapModule(platform: Platform, _deps: CollisionMapDeps): CollisionMapModule {
  return { service: new CollisionMapService(platform), registerRoutes() {} };
}
