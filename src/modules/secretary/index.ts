/**
 * The secretary (`/api/secretary`): the CEO's chief of staff in a live chat (the `secretary-1`
 * agent on the shared bridge) and the directive queue of the high-impact actions it proposes.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import { rosterMember } from '../agents/index.js';
import { createLiveChat, type LiveChat } from '../live-chat/index.js';
import type { ProvidersModule } from '../providers/index.js';
import type { DirectiveExecutorDeps } from './directive-kinds.js';
import { DirectivesService } from './directives.js';
import { registerSecretaryRoutes } from './routes.js';
import { secretaryAgent } from './secretary-agent.js';

export { DIRECTIVE_KINDS, type DirectiveKind } from './directive-kinds.js';
export { DirectivesService, type DirectiveView } from './directives.js';

export interface SecretaryModule extends ModuleFace {
  chat: LiveChat;
  directives: DirectivesService;
}

export interface SecretaryDeps extends DirectiveExecutorDeps {
  scheduler: Scheduler;
  providers: Pick<ProvidersModule, 'service'>;
}

export function createSecretaryModule({ platform, deps }: ModuleInput<SecretaryDeps>): SecretaryModule {
  const { id, role } = rosterMember('secretary-1');
  const directives = new DirectivesService(platform.database.db, platform.clock, deps);
  const chat = createLiveChat(
    platform,
    'secretary',
    secretaryAgent({ id, role }, () => directives, deps.companyGoals),
    {
      scheduler: deps.scheduler,
      clientFor: (subject) => deps.providers.service.clientFor(subject),
    },
  );
  return {
    chat,
    directives,
    registerRoutes: (app) => registerSecretaryRoutes(app, chat, directives),
    start: () => chat.start(),
    stop: () => chat.stop(),
  };
}
