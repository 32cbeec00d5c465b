/**
 * Product pitches of the board and the CEO's decision on them, behind the `provisioning` feature
 * flag. `approve(id, notes, actor)` is exported on the module for the secretary's directive queue.
 */
import { join } from 'node:path';
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { ProductsModule } from '../products/index.js';
import type { ProjectsModule } from '../projects/index.js';
import type { FeatureFlags } from '../settings/index.js';
import type { TasksModule } from '../tasks/index.js';
import { ForgeConfigStore } from './forge-config.js';
import { hostedRepository } from './hosted-repositories.js';
import { LocalRepositories } from './repositories.js';
import { provisioningDisabled, registerPitchesRoutes } from './routes.js';
import { type PitchActor, PitchesService, type PitchView } from './service.js';

export { PITCH_CELLS, PITCH_STATUSES } from './rules.js';
export { pitches, pitchForge } from './schema.js';
export type { PitchActor, PitchView } from './service.js';
export { PitchesService };

export interface PitchesModule extends ModuleFace {
  service: PitchesService;
  /** Approves a proposed pitch and provisions it (409 `pitch_decided` otherwise). */
  approve(id: string, notes: string | null, actor: PitchActor): Promise<PitchView>;
}

export interface PitchesDeps {
  agents: Pick<AgentsModule, 'service'>;
  projects: Pick<ProjectsModule, 'service'>;
  products: Pick<ProductsModule, 'service'>;
  tasks: Pick<TasksModule, 'service'>;
  flags: Pick<FeatureFlags, 'isEnabled'>;
  notifications: Pick<NotificationsModule, 'service'>;
}

export function createPitchesModule({ platform, deps }: ModuleInput<PitchesDeps>): PitchesModule {
  const repositories = new LocalRepositories(join(platform.config.dataDir, 'repos'));
  const forge = new ForgeConfigStore(platform.database.db, platform.secret, platform.clock);
  const service = new PitchesService(platform.database.db, platform.clock, {
    projects: deps.projects.service,
    products: deps.products.service,
    tasks: deps.tasks.service,
    mainPm: async () => (await deps.agents.service.mainPm())?.slug ?? null,
    repository: async (slug, readme, description) => {
      const provisioning = await forge.provisioning();
      if (provisioning) return hostedRepository(provisioning, slug, description);
      return {
        gitUrl: await repositories.ensure(slug, readme),
        provider: 'local',
        apiUrl: null,
        token: null,
      };
    },
    proposed: async (pitch, by) => {
      try {
        await deps.notifications.service.send(
          {
            type: 'approval',
            recipients: ['ceo'],
            subject: `Pitch proposed: ${pitch.title}`.slice(0, 200),
            body: `${by.slug} proposes ${pitch.slug} for ${pitch.target_cells.join(', ')}.\n\n${pitch.problem}\n\nDecide at /api/pitches/${pitch.id}.`,
          },
          { id: by.id, role: by.role },
        );
      } catch (error) {
        platform.log.warn({ err: error, pitch: pitch.id }, 'could not notify the CEO of a pitch');
      }
    },
  });
  return {
    service,
    approve: (id, notes, actor) => {
      if (!deps.flags.isEnabled('provisioning')) return Promise.reject(provisioningDisabled());
      return service.approve(id, notes, actor);
    },
    registerRoutes: (app) =>
      registerPitchesRoutes(
        app,
        service,
        forge,
        (identity) => deps.agents.service.actorOf(identity),
        () => deps.flags.isEnabled('provisioning'),
      ),
  };
}
