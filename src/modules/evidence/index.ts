/**
 * Evidence: which agents, CLIs and models deliver, from the company's own record. One outcome row
 * per task (outcome.ts, kept by keeper.ts, rebuildable by rebuild.ts), the scorecards over them
 * (scorecards.ts, /api/workforce) and the statistics they quote (stats.ts).
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import { keepOutcomes, type OutcomeKeeper } from './keeper.js';
import { rebuildOutcomes } from './rebuild.js';
import { registerWorkforceRoutes } from './routes.js';

export { type OutcomeInputs, outcomeOf, type TaskOutcome } from './outcome.js';
export { rebuildOutcomes } from './rebuild.js';
export { describeRate, type Interval, MIN_SAMPLE, quantile, separated, wilson } from './stats.js';

export interface EvidenceModule extends ModuleFace {
  /** Folds the tasks whose record changed just now (tests, before they read the rows). */
  flush(): Promise<void>;
  rebuild(): Promise<number>;
}

export function createEvidenceModule({ platform }: ModuleInput<Record<string, never>>): EvidenceModule {
  const { db } = platform.database;
  let keeper: OutcomeKeeper | null = null;
  return {
    registerRoutes: (app) => registerWorkforceRoutes(app, db, platform.clock, () => rebuildOutcomes(db)),
    start() {
      keeper = keepOutcomes(db, platform.bus, (error) =>
        platform.log.warn({ err: error }, 'evidence: folding task outcomes failed'),
      );
    },
    async stop() {
      await keeper?.stop();
    },
    flush: async () => keeper?.flush(),
    rebuild: () => rebuildOutcomes(db),
  };
}
