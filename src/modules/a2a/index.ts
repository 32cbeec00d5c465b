/** Agent-to-agent conversations and messages, with the access matrix; every message published live. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import type { TasksModule } from '../tasks/index.js';
import { registerA2aRoutes } from './routes.js';
import { registerA2aAdminRoutes } from './routes-admin.js';
import { A2aService } from './service.js';

export { type AccessDecision, mayMessage, type Party } from './access-matrix.js';
export type { A2aMessageSent } from './events.js';
export { A2A_LIMITS, CONVERSATION_STATUSES, MESSAGE_KINDS, type MessageKind } from './rules.js';

export type { MessageDraft, SentMessage } from './send-message.js';
export type { JoinTransaction, OpenConversation, SendInput } from './service.js';
export type { AgentRef } from './store.js';
export { type UnreadSummary, unreadSummarySql } from './unread-summary.js';
export { A2aService };

export interface A2aModule extends ModuleFace {
  service: A2aService;
}

/** What this module is handed: the outside faces of the modules it uses. */
export interface A2aDeps {
  agents: AgentsModule;
  tasks: TasksModule;
}

export function createA2aModule({ platform, deps }: ModuleInput<A2aDeps>): A2aModule {
  const service = new A2aService(platform, { agents: deps.agents.service, tasks: deps.tasks.service });
  return {
    service,
    registerRoutes(app) {
      registerA2aRoutes(app, service);
      registerA2aAdminRoutes(app, service);
    },
  };
}
