/**
 * Evidence: which agents, CLIs and models deliver, from the company's own record. One outcome row
 * per task (outcome.ts, kept by keeper.ts, rebuildable by rebuild.ts), the scorecards over them
 * (scorecards.ts, /api/workforce), the statistics they quote (stats.ts) and the experiments that
 * split a role's work between two routes (experiments.ts, /api/workforce/experiments).
 */

import { isRole } from '../../platform/http/auth/identity.js';
import { SYSTEM_ID } from '../../platform/http/auth/index.js';
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { ProvidersModule } from '../providers/index.js';
import { registerExperimentRoutes } from './experiment-routes.js';
import { type ExperimentProviders, ExperimentsService, endedCard } from './experiments.js';
import { keepOutcomes, type OutcomeKeeper } from './keeper.js';
import { rebuildOutcomes } from './rebuild.js';
import { registerWorkforceRoutes } from './routes.js';

export { ExperimentsService } from './experiments.js';
export { type OutcomeInputs, outcomeOf, type TaskOutcome } from './outcome.js';
export { rebuildOutcomes } from './rebuild.js';
export type { ArmRoute } from './schema.js';
export { describeRate, type Interval, MIN_SAMPLE, quantile, separated, wilson } from './stats.js';

export interface EvidenceDeps {
  agents: Pick<AgentsModule, 'service'>;
  providers: Pick<ProvidersModule, 'service'>;
  notifications: Pick<NotificationsModule, 'service'>;
  /** The agent CLIs this server has command templates for (an arm may name one of them, or `scripted`). */
  clis: () => readonly string[];
  /** The CLI every run takes unless an arm names another. */
  agentCli: () => string;
}

export interface EvidenceModule extends ModuleFace {
  experiments: ExperimentsService;
  /** Folds the tasks whose record changed just now (tests, before they read the rows). */
  flush(): Promise<void>;
  rebuild(): Promise<number>;
}

export function createEvidenceModule({ platform, deps }: ModuleInput<EvidenceDeps>): EvidenceModule {
  const { db } = platform.database;
  const providers = deps.providers.service;
  const routes: ExperimentProviders = {
    names: async () => (await providers.list()).map((provider) => provider.name),
    async routeOfRole(role) {
      // The system's id has no route of its own: what applies is the role's, else the global one.
      const route = await providers.resolveFor({ id: SYSTEM_ID, role });
      return route ? { provider: route.provider.name, model: route.model } : null;
    },
    setRoleRoute: (role, route) => providers.putRouting({ roles: { [role]: route } }),
  };
  const experiments = new ExperimentsService({
    db,
    clock: platform.clock,
    providers: routes,
    agentIdsOfRole: async (role) =>
      isRole(role) ? (await deps.agents.service.byRole(role)).map((agent) => agent.id) : [],
    clis: () => [...new Set([...deps.clis(), 'scripted'])].sort(),
    serverCli: deps.agentCli,
    // One card in the CEO's inbox when an experiment ends (an approval to acknowledge: adopt an arm
    // or not); nothing switches by itself.
    onEnded: async (experiment) => {
      const card = endedCard(experiment);
      await deps.notifications.service
        .send(
          {
            type: 'approval',
            priority: 'normal',
            recipients: ['ceo'],
            ...card,
            related_task_id: null,
          },
          { id: SYSTEM_ID, role: 'system' },
        )
        .catch((error) =>
          platform.log.warn({ err: error }, 'evidence: telling the CEO an experiment ended failed'),
        );
    },
  });
  let keeper: OutcomeKeeper | null = null;
  return {
    experiments,
    registerRoutes(app) {
      registerWorkforceRoutes(app, db, platform.clock, () => rebuildOutcomes(db));
      registerExperimentRoutes(app, experiments);
    },
    start() {
      keeper = keepOutcomes(
        db,
        platform.bus,
        (error) => platform.log.warn({ err: error }, 'evidence: folding task outcomes failed'),
        (ids) => experiments.review(ids),
      );
    },
    async stop() {
      await keeper?.stop();
    },
    flush: async () => keeper?.flush(),
    rebuild: () => rebuildOutcomes(db),
  };
}
