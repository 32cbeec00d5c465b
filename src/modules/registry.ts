/**
 * Composes the domain modules in dependency order, registers their routes and starts and stops
 * them with the app. Each module's outside face is its index.ts, and each declares what it needs
 * of the others there; this is the one place that knows them all, and only the composition root
 * (src/app.ts) imports it.
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform/context.js';
import { type ModuleFace, startModules, stopModules } from '../platform/module.js';
import type { Scheduler } from '../platform/scheduler/index.js';
import { type A2aModule, createA2aModule } from './a2a/index.js';
import { type AgentsModule, createAgentsModule } from './agents/index.js';
import { type BoardProgramsModule, createBoardProgramsModule } from './board-programs/index.js';
import { type ChatRelayModule, createChatRelayModule } from './chat-relay/index.js';
import { type CockpitModule, createCockpitModule } from './cockpit/index.js';
import { type CollisionMapModule, createCollisionMapModule } from './collision-map/index.js';
import { type CompanyGoalsModule, createCompanyGoalsModule } from './company-goals/index.js';
import { createDashboardModule, type DashboardModule } from './dashboard/index.js';
import { createDispatchModule, type DispatchModule } from './dispatch/index.js';
import { createDocsModule, type DocsModule } from './docs/index.js';
import { createEnginesModule, type EnginesModule } from './engines/index.js';
import { createEvidenceModule, type EvidenceModule } from './evidence/index.js';
import { createFindingsModule, type FindingsModule } from './findings/index.js';
import { createGatewayModule, type GatewayModule, workspacesGit } from './gateway/index.js';
import { createGitModule, type GitModule } from './git/index.js';
import { createJournalsModule, type JournalsModule } from './journals/index.js';
import { createKanbanModule, type KanbanModule } from './kanban/index.js';
import { createMaintenanceModule, type MaintenanceModule } from './maintenance/index.js';
import { createNotificationsModule, type NotificationsModule } from './notifications/index.js';
import {
  createOptimalModule,
  findingsKnowledgeSource,
  type OptimalModule,
  tasksKnowledgeSource,
} from './optimal/index.js';
import { createPitchesModule, type PitchesModule } from './pitches/index.js';
import { createProductsModule, type ProductsModule } from './products/index.js';
import { createProjectsModule, type ProjectsModule } from './projects/index.js';
import { createPrompterModule, type PrompterModule } from './prompter/index.js';
import { createProvidersModule, type ProvidersModule } from './providers/index.js';
import { createResearchModule, type ResearchModule } from './research/index.js';
import { createRuntimeModule, type RuntimeModule } from './runtime/index.js';
import { createSecretaryModule, type SecretaryModule } from './secretary/index.js';
import type { SettingsModule } from './settings/index.js';
import { createStreamsModule, type StreamsModule } from './streams/index.js';
import { createSystemModule, type SystemModule } from './system/index.js';
import {
  createTasksModule,
  type TasksModule,
  taskCountOfProduct,
  taskCountOfProject,
} from './tasks/index.js';
import { createUsageModule, runSpend, type UsageModule } from './usage/index.js';
import { createWorkSessionsModule, type WorkSessionsModule } from './work-sessions/index.js';
import { createWorkspacesModule, type WorkspacesModule } from './workspaces/index.js';
import { createXPostsModule, type XPostsModule } from './x-posts/index.js';

/** Every module, in the order they are created (each after the modules it depends on). */
export interface Modules {
  agents: AgentsModule;
  projects: ProjectsModule;
  usage: UsageModule;
  providers: ProvidersModule;
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
  maintenance: MaintenanceModule;
  boardPrograms: BoardProgramsModule;
  workspaces: WorkspacesModule;
  runtime: RuntimeModule;
  system: SystemModule;
  gateway: GatewayModule;
  companyGoals: CompanyGoalsModule;
  dispatch: DispatchModule;
  engines: EnginesModule;
  git: GitModule;
  dashboard: DashboardModule;
  cockpit: CockpitModule;
  journals: JournalsModule;
  docs: DocsModule;
  pitches: PitchesModule;
  optimal: OptimalModule;
  research: ResearchModule;
  xPosts: XPostsModule;
  prompter: PrompterModule;
  secretary: SecretaryModule;
  evidence: EvidenceModule;
}

/**
 * What the composition root builds before the domain modules and hands to those that declare a
 * need for it. Each module declares its own dependencies (its `…Deps` interface, in its index.ts);
 * nothing but the composition root (src/app.ts) imports this file.
 */
export interface Foundations {
  settings: SettingsModule;
  scheduler: Scheduler;
}

export async function createModules(platform: Platform, foundations: Foundations): Promise<Modules> {
  const { settings, scheduler } = foundations;
  const agents = await createAgentsModule({ platform, deps: {} });
  const { db } = platform.database;
  const projects = createProjectsModule({
    platform,
    deps: { taskCountOf: (id) => taskCountOfProject(db, id) },
  });
  const usage = createUsageModule({ platform, deps: { agents, settings, scheduler } });
  const providers = createProvidersModule({
    platform,
    deps: {
      agents,
      onModelUsage: (call) => void usage.recordModelCall(call),
    },
  });
  const products = createProductsModule({
    platform,
    deps: {
      projects,
      taskCountOf: (id) => taskCountOfProduct(db, id),
    },
  });
  const tasks = createTasksModule({ platform, deps: { agents, projects, products } });
  const findings = createFindingsModule({ platform, deps: { tasks } });
  const collisionMap = createCollisionMapModule({ platform, deps: { tasks } });
  const kanban = createKanbanModule({ platform, deps: {} });
  const workSessions = createWorkSessionsModule({ platform, deps: { agents, tasks } });
  const streams = createStreamsModule({ platform, deps: { agents } });
  const chatRelay = createChatRelayModule({ platform, deps: { settings } });
  const notifications = createNotificationsModule({
    platform,
    deps: { agents, tasks, chatRelay, scheduler },
  });
  const a2a = createA2aModule({ platform, deps: { agents, tasks } });
  const maintenance = createMaintenanceModule({ platform, deps: { settings, scheduler } });
  const boardPrograms = createBoardProgramsModule({ platform, deps: { scheduler, maintenance } });
  const workspaces = createWorkspacesModule({ platform, deps: { projects } });
  const runtime = createRuntimeModule({
    platform,
    deps: {
      agents,
      settings,
      scheduler,
      modelRoute: (agent, named) => providers.modelRouteFor(agent, named),
      onUsage: (run) => void usage.recordRunUsage(run),
    },
  });
  const system = createSystemModule({
    platform,
    deps: { scheduler, agents, providers, runtime, notifications },
  });
  const gateway = createGatewayModule({
    platform,
    deps: {
      agents,
      tasks,
      a2a,
      notifications,
      findings,
      git: workspacesGit(workspaces.service, projects.service),
      rateLimits: system.rateLimits,
      usage,
    },
  });
  const companyGoals = createCompanyGoalsModule({ platform, deps: { agents } });
  const evidence = createEvidenceModule({
    platform,
    deps: {
      agents,
      providers,
      notifications,
      clis: () => runtime.processRuntime.providerNames(),
      agentCli: () => dispatch.agentCli,
    },
  });
  const dispatch = createDispatchModule({
    platform,
    deps: {
      scheduler,
      maintenance,
      agents,
      tasks,
      projects,
      notifications,
      runtime,
      workspaces,
      usage,
      rateLimits: system.rateLimits,
      charter: () => companyGoals.service.get(),
      experimentArm: (role, taskId) => evidence.experiments.armFor(role, taskId),
    },
  });
  const engines = createEnginesModule({
    platform,
    deps: {
      settings,
      boardPrograms,
      agents,
      projects,
      tasks,
      notifications,
      workspaces,
    },
  });
  const git = createGitModule({ platform, deps: { projects, workspaces, tasks } });
  const dashboard = createDashboardModule({
    platform,
    deps: {
      tasks,
      agents,
      dispatch,
      runtime,
      runSpend: (runs) => runSpend(db, runs),
    },
  });
  const cockpit = createCockpitModule({ platform, deps: { companyGoals, tasks, dispatch, usage, settings } });
  const journals = createJournalsModule({ platform, deps: { agents } });
  // Each doc write nudges the retrieval index (optimal is created below; the nudge runs later).
  const docs = createDocsModule({
    platform,
    deps: {
      agents,
      tasks,
      projects,
      workspaces,
      onChanged: () => void optimal.indexNow(),
    },
  });
  const pitches = createPitchesModule({
    platform,
    deps: {
      agents,
      projects,
      products,
      tasks,
      flags: settings.flags,
      notifications,
    },
  });
  const optimal = createOptimalModule({
    platform,
    deps: {
      scheduler,
      settings,
      providers,
      sources: [
        findingsKnowledgeSource(db),
        tasksKnowledgeSource(db),
        docs.knowledgeSource,
        journals.knowledgeSource,
      ],
      visibility: {
        journal: (reader, refs) =>
          journals.service.visibleEntries({ ...reader, team: reader.team ?? null }, refs),
      },
    },
  });
  const research = createResearchModule({ platform, deps: { settings } });
  const xPosts = createXPostsModule({ platform, deps: { notifications } });
  const prompter = createPrompterModule({
    platform,
    deps: { scheduler, providers, projects, products, tasks },
  });
  const secretary = createSecretaryModule({
    platform,
    deps: {
      scheduler,
      providers,
      companyGoals,
      tasks,
      notifications,
      agents,
      // A confirmed directive approves the pitch as the CEO who confirmed it.
      approvePitch: async (id, notes, identity) =>
        pitches.approve(id, notes || null, await agents.service.actorOf(identity)),
    },
  });
  return {
    agents,
    projects,
    usage,
    providers,
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
    maintenance,
    boardPrograms,
    workspaces,
    runtime,
    system,
    gateway,
    companyGoals,
    dispatch,
    engines,
    git,
    dashboard,
    cockpit,
    journals,
    docs,
    pitches,
    optimal,
    research,
    xPosts,
    prompter,
    secretary,
    evidence,
  };
}

/**
 * Registers every module's routes, starts the modules when the app is ready and stops them when it
 * closes — in the order `Modules` lists them (the order they are created in, dependencies first),
 * stops in reverse, so a module stops before what it depends on.
 */
export function mountModules(app: FastifyInstance, modules: Modules): void {
  const inOrder: ModuleFace[] = Object.values(modules);
  for (const module of inOrder) module.registerRoutes(app);
  app.addHook('onReady', async () => startModules(inOrder));
  app.addHook('onClose', async () => stopModules(inOrder));
}
