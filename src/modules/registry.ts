/**
 * Composes the domain modules in dependency order and registers their routes. Each module's
 * outside face is its index.ts; this is the one place that knows them all.
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/context.js';
import { type A2aModule, createA2aModule } from './a2a/index.js';
import { type AgentsModule, createAgentsModule } from './agents/index.js';
import { type ChatRelayModule, createChatRelayModule } from './chat-relay/index.js';
import { type CollisionMapModule, createCollisionMapModule } from './collision-map/index.js';
import { createFindingsModule, type FindingsModule } from './findings/index.js';
import { createKanbanModule, type KanbanModule } from './kanban/index.js';
import { createNotificationsModule, type NotificationsModule } from './notifications/index.js';
import { createProductsModule, type ProductsModule } from './products/index.js';
import { createProjectsModule, type ProjectsModule } from './projects/index.js';
import type { SettingsModule } from './settings/index.js';
import { createStreamsModule, type StreamsModule } from './streams/index.js';
import { createTasksModule, type TasksModule } from './tasks/index.js';
import { createWorkSessionsModule, type WorkSessionsModule } from './work-sessions/index.js';

export interface Modules {
  agents: AgentsModule;
  projects: ProjectsModule;
  products: ProductsModule;
  tasks: TasksModule;
  findings: FindingsModule;
  collisionMap: CollisionMapModule;
  kanban: KanbanModule;
  workSessions: WorkSessionsModule;
  streams: StreamsModule;
  chatRelay: ChatRelayModule;
  notifications: NotificationsModule;
  a2a: A2aModule;
}

/** What each module may use of the others (their outside faces only). */
export type ProductsDeps = Pick<Modules, 'projects'>;
export type TasksDeps = Pick<Modules, 'agents' | 'projects' | 'products'>;
export type FindingsDeps = Pick<Modules, 'tasks'>;
export type CollisionMapDeps = Pick<Modules, 'tasks'>;
export type WorkSessionsDeps = Pick<Modules, 'agents' | 'tasks'>;
export type StreamsDeps = Pick<Modules, 'agents'>;
export type ChatRelayDeps = { settings: SettingsModule };
export type NotificationsDeps = Pick<Modules, 'agents' | 'tasks' | 'chatRelay'>;
export type A2aDeps = Pick<Modules, 'agents' | 'tasks'>;

export async function createModules(platform: Platform, settings: SettingsModule): Promise<Modules> {
  const agents = await createAgentsModule(platform);
  const projects = createProjectsModule(platform);
  const products = createProductsModule(platform, { projects });
  const tasks = createTasksModule(platform, { agents, projects, products });
  const findings = createFindingsModule(platform, { tasks });
  const collisionMap = createCollisionMapModule(platform, { tasks });
  const kanban = createKanbanModule(platform);
  const workSessions = createWorkSessionsModule(platform, { agents, tasks });
  const streams = createStreamsModule(platform, { agents });
  const chatRelay = createChatRelayModule(platform, { settings });
  const notifications = createNotificationsModule(platform, { agents, tasks, chatRelay });
  const a2a = createA2aModule(platform, { agents, tasks });
  return {
    agents,
    projects,
    products,
    tasks,
    findings,
    collisionMap,
    kanban,
    workSessions,
    streams,
    chatRelay,
    notifications,
    a2a,
  };
}

export function registerModuleRoutes(app: FastifyInstance, modules: Modules): void {
  for (const module of Object.values(modules)) module.registerRoutes(app);
}
