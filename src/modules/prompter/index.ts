/**
 * The intake interviewer (`/api/prompter`): a live chat, scoped to a project, a product or several
 * projects, in which the `intake-1` agent interviews the CEO and proposes a task or a batch; the
 * CEO confirms and the task(s) open through the tasks service.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import { rosterMember } from '../agents/index.js';
import { createLiveChat, type LiveChat } from '../live-chat/index.js';
import type { ProductsModule } from '../products/index.js';
import type { ProjectsModule } from '../projects/index.js';
import type { ProvidersModule } from '../providers/index.js';
import type { TasksModule } from '../tasks/index.js';
import { intakeAgent } from './intake-agent.js';
import { IntakeService } from './intake-service.js';
import { registerPrompterRoutes } from './routes.js';

export type { IntakeDraft } from './intake-agent.js';
export { IntakeService };

export interface PrompterModule extends ModuleFace {
  chat: LiveChat;
  intake: IntakeService;
}

export interface PrompterDeps {
  scheduler: Scheduler;
  providers: Pick<ProvidersModule, 'service'>;
  projects: Pick<ProjectsModule, 'service'>;
  products: Pick<ProductsModule, 'service'>;
  tasks: Pick<TasksModule, 'service'>;
}

export function createPrompterModule({ platform, deps }: ModuleInput<PrompterDeps>): PrompterModule {
  const { id, role } = rosterMember('intake-1');
  const drafts = {
    setDraft: (sid: string, draft: Record<string, unknown> | null) => chat.bridge.store.setDraft(sid, draft),
  };
  const chat: LiveChat = createLiveChat(platform, 'prompter', intakeAgent({ id, role }, drafts), {
    scheduler: deps.scheduler,
    clientFor: (subject) => deps.providers.service.clientFor(subject),
  });
  const intake = new IntakeService(chat.bridge, deps);
  return {
    chat,
    intake,
    registerRoutes: (app) => registerPrompterRoutes(app, chat, intake),
    start: () => chat.start(),
    stop: () => chat.stop(),
  };
}
