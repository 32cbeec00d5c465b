/**
 * The pitches service wired to the rest of Gaffer: a repository for an approved pitch (hosted on
 * the configured forge, else a local bare repository under the data directory) and the CEO told of
 * each pitch proposed (a notification that cannot be sent is logged, never fails the proposal).
 */
import { join } from 'node:path';
import type { Platform } from '../../platform/context.js';
import type { PitchesDeps } from './deps.js';
import { ForgeConfigStore } from './forge-config.js';
import { hostedRepository } from './hosted-repositories.js';
import { LocalRepositories } from './repositories.js';
import { PitchesService } from './service.js';

export function wirePitches(
  platform: Platform,
  deps: PitchesDeps,
): { service: PitchesService; forge: ForgeConfigStore } {
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
  return { service, forge };
}
