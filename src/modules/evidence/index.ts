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
import './events.js';
import { registerExperimentRoutes } from './experiment-routes.js';
import { type ExperimentProviders, ExperimentsService, endedCard } from './experiments.js';
import { keepOutcomes, type OutcomeKeeper } from './keeper.js';
import { rebuildOutcomes } from './rebuild.js';
import { type Advice, adviseRoutes } from './route-advice.js';
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
  /** Looks at the scorecards now and tells the CEO each route advice not told this month. */
  adviseRoutes(): Promise<Advice[]>;
}

/** How often a replica looks at the scorecards for route advice (after a fold, at most). */
const ADVICE_EVERY_MS = 10 * 60_000;

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
  // Advice is one card in the CEO's inbox, an approval to acknowledge; nothing switches by itself.
  const tellCeo = (card: { subject: string; body: string }) =>
    deps.notifications.service
      .send(
        { type: 'approval', priority: 'normal', recipients: ['ceo'], ...card, related_task_id: null },
        { id: SYSTEM_ID, role: 'system' },
      )
      .then(
        () => undefined,
        (error) =>
          platform.log.warn({ err: error, subject: card.subject }, 'evidence: telling the CEO failed'),
      );
  const experiments = new ExperimentsService({
    db,
    clock: platform.clock,
    providers: routes,
    agentIdsOfRole: async (role) =>
      isRole(role) ? (await deps.agents.service.byRole(role)).map((agent) => agent.id) : [],
    clis: () => [...new Set([...deps.clis(), 'scripted'])].sort(),
    serverCli: deps.agentCli,
    onEnded: async (experiment) => {
      // Every replica's dispatcher lifts the role's start-failure back-off; the card is sent anyway.
      await platform.bus
        .publish('EXPERIMENT_ENDED', {
          experiment_id: experiment.id,
          role: experiment.role,
          reason: experiment.ended_reason ?? 'stopped',
        })
        .catch((error) =>
          platform.log.warn({ err: error }, 'evidence: announcing an experiment’s end failed'),
        );
      await tellCeo(endedCard(experiment));
    },
  });
  const advise = () =>
    adviseRoutes({
      db,
      clock: platform.clock,
      async routeOfRole(role) {
        const model = (await routes.routeOfRole(role))?.model;
        return model ? { cli: deps.agentCli(), model } : null;
      },
      experimentRoles: () => experiments.runningRoles(),
      tell: tellCeo,
    });
  // The scorecards are looked at again after a fold at most this often (on each replica).
  let advisedAt = Number.NEGATIVE_INFINITY;
  const adviseNowAndThen = async () => {
    const now = platform.clock.now().getTime();
    if (now - advisedAt < ADVICE_EVERY_MS) return;
    advisedAt = now;
    await advise();
  };
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
        async (ids) => {
          await experiments.review(ids);
          await adviseNowAndThen();
        },
      );
    },
    async stop() {
      await keeper?.stop();
    },
    flush: async () => keeper?.flush(),
    adviseRoutes: advise,
    rebuild: () => rebuildOutcomes(db),
  };
}
