/**
 * Product pitches of the board and the CEO's decision on them, behind the `provisioning` feature
 * flag. `approve(id, notes, actor)` is exported on the module for the secretary's directive queue.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { PitchesDeps } from './deps.js';
import { provisioningDisabled, registerPitchesRoutes } from './routes.js';
import { type PitchActor, PitchesService, type PitchView } from './service.js';
import { wirePitches } from './wiring.js';

export type { PitchesDeps } from './deps.js';
export { PITCH_CELLS, PITCH_STATUSES } from './rules.js';

export type { PitchActor, PitchView } from './service.js';
export { PitchesService };

export interface PitchesModule extends ModuleFace {
  service: PitchesService;
  /** Approves a proposed pitch and provisions it (409 `pitch_decided` otherwise). */
  approve(id: string, notes: string | null, actor: PitchActor): Promise<PitchView>;
}

export function createPitchesModule({ platform, deps }: ModuleInput<PitchesDeps>): PitchesModule {
  const { service, forge } = wirePitches(platform, deps);
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
