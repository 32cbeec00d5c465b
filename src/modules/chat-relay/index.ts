/** The chat-notification relay: write-only Telegram credentials and the after-commit fan-out of notifications. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { ChatRelayDeps } from '../registry.js';
import { ChatRelayService } from './service.js';

export { ChatRelayService };

export interface ChatRelayModule {
  service: ChatRelayService;
  registerRoutes(app: FastifyInstance): void;
}

export function createChatRelayModule(platform: Platform, _deps: ChatRelayDeps): ChatRelayModule {
  return { service: new ChatRelayService(platform), registerRoutes() {} };
}
