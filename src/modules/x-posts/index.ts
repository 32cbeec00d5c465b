/**
 * X posts' outside face: release and feature posts drafted by the head of marketing, scored by the
 * impact bar, held for the CEO, and posted through the X API on approval (/api/x).
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { XCredentialsStore } from './credentials-store.js';
import { registerXPostsRoutes } from './routes.js';
import { XPostsService } from './service.js';

export { IMPACT_RUBRIC, type ImpactScore, impactBar } from './impact-bar.js';
export { XPostsService };

export interface XPostsModule {
  service: XPostsService;
  registerRoutes(app: FastifyInstance): void;
}

const X_TIMEOUT_MS = 15_000;

export function createXPostsModule(platform: Platform): XPostsModule {
  const { db } = platform.database;
  const service = new XPostsService(
    db,
    platform.clock,
    new XCredentialsStore(db, platform.clock, platform.secret),
    X_TIMEOUT_MS,
  );
  return { service, registerRoutes: (app) => registerXPostsRoutes(app, service) };
}
