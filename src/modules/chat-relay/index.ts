/** The chat-notification relay: write-only Telegram credentials and the after-commit fan-out of notifications. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { SettingsModule } from '../settings/index.js';
import { registerChatRelayRoutes } from './routes.js';
import { ChatRelayService } from './service.js';

export { credentialsChange } from './credential-rules.js';
export { escapeHtml, type RelayedNotification, telegramText } from './telegram-message.js';
export { ChatRelayService };

export interface ChatRelayModule extends ModuleFace {
  service: ChatRelayService;
}

/** What this module is handed besides the platform (settings and scheduler are built first). */
export interface ChatRelayDeps {
  settings: SettingsModule;
}

export function createChatRelayModule({ platform, deps }: ModuleInput<ChatRelayDeps>): ChatRelayModule {
  const service = new ChatRelayService(platform, deps.settings.flags);
  return {
    service,
    registerRoutes: (app) => registerChatRelayRoutes(app, service),
    // In-flight sends are bounded by the Bot API timeout; let them settle before shutting down.
    stop: () => service.idle(),
  };
}
