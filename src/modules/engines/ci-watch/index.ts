/** The multi-repo CI-watch (being built: its sweep is not written yet). */
import type { BoardProgram } from '../../board-programs/index.js';
import type { EngineDeps } from '../deps.js';

export function ciWatchProgram(deps: EngineDeps): BoardProgram {
  return {
    key: 'ci_watch',
    title: 'Multi-repo CI-watch',
    description:
      'Reads the CI of every opted-in project and opens a fix task when its default branch is red.',
    role: 'system',
    trigger: 'interval',
    intervalSeconds: deps.config.ciWatchIntervalSeconds,
    scope: 'project',
    enabled: () => deps.flags.isEnabled('ci_watch'),
    sweep: async () => {
      throw new Error('the CI-watch sweep is not built yet');
    },
  };
}
