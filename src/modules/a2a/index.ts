/** Agent-to-agent conversations and messages, with the access matrix; every message published live. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { A2aDeps } from '../registry.js';
import { registerA2aRoutes } from './routes.js';
import { registerA2aAdminRoutes } from './routes-admin.js';
import { A2aService } from './service.js';

export { type AccessDecision, mayMessage, type Party } from './access-matrix.js';
export { A2A_LIMITS, CONVERSATION_STATUSES, MESSAGE_KINDS, type MessageKind } from './rules.js';
export { a2aConversations, a2aMessages, a2aReadMarks } from './schema.js';
export type { MessageDraft, SentMessage } from './send-message.js';
export type { JoinTransaction, OpenConversation, SendInput } from './service.js';
export type { AgentRef } from './store.js';
export { type UnreadSummary, unreadSummarySql } from './unread-summary.js';
export { A2aService };

export interface A2aModule {
  service: A2aService;
  registerRoutes(app: FastifyInstance): void;
}

export function createA2aModule(platform: Platform, deps: A2aDeps): A2aModule {
  const service = new A2aService(platform, { agents: deps.agents.service, tasks: deps.tasks.service });
  return {
    service,
    registerRoutes(app) {
      registerA2aRoutes(app, service);
      registerA2aAdminRoutes(app, service);
    },
  };
}
