/**
 * Composes the domain modules in dependency order and registers their routes. Each module's
 * outside face is its index.ts; this is the one place that knows them all.
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/context.js';
import { type AgentsModule, createAgentsModule } from './agents/index.js';
import { createProjectsModule, type ProjectsModule } from './projects/index.js';

export interface Modules {
  agents: AgentsModule;
  projects: ProjectsModule;
}

export async function createModules(platform: Platform): Promise<Modules> {
  const agents = await createAgentsModule(platform);
  const projects = createProjectsModule(platform);
  return { agents, projects };
}

export function registerModuleRoutes(app: FastifyInstance, modules: Modules): void {
  for (const module of Object.values(modules)) module.registerRoutes(app);
}
