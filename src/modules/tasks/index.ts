/** Tasks: creation, reads, lifecycle transitions, atomic claims, audit trail, CEO god mode. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { TasksDeps } from '../registry.js';
import { TasksService } from './service.js';

export { TasksService };

export interface TasksModule {
  service: TasksService;
  registerRoutes(app: FastifyInstance): void;
}

export function createTasksModule(platform: Platform, _deps: TasksDeps): TasksModule {
  return { service: new TasksService(platform), registerRoutes() {} };
}
