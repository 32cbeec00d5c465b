/**
 * Multi-repo CI-watch: a board program that reads the latest CI conclusion of every opted-in
 * project's default branch (head rung) and opens one ordinary fix task per red repository and
 * workflow. It never starts, merges or deploys anything. Off unless the `ci_watch` flag was on at boot.
 */
import type { BoardProgram } from '../../board-programs/index.js';
import type { EngineDeps } from '../deps.js';
import { ciWatchSweep } from './sweep.js';

export { CI_WATCH_SOURCE } from './sweep.js';

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
    sweep: (cycle) => ciWatchSweep(deps, cycle),
  };
}
