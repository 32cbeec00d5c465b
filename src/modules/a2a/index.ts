/** Agent-to-agent conversations and messages, with the access matrix; every message published live. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { A2aDeps } from '../registry.js';
import { A2aService } from './service.js';

export { A2aService };

export interface A2aModule {
  service: A2aService;
  registerRoutes(app: FastifyInstance): void;
}

export function createA2aModule(platform: Platform, _deps: A2aDeps): A2aModule {
  return { service: new A2aService(platform), registerRoutes() {} };
}
