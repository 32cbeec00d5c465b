/**
 * The dependency-update bot: a board program that, for every opted-in project (a
 * `dep_update_command`), runs the command in a throwaway shallow clone — no shell, a scrubbed
 * environment, a timeout — and opens one ordinary update task when the lockfiles would change.
 * It never commits, pushes, merges or deploys. Off unless the `dep_update` flag was on at boot:
 * then no clone is ever made.
 */
import type { BoardProgram } from '../../board-programs/index.js';
import type { EngineDeps } from '../deps.js';
import { depUpdateSweep } from './sweep.js';

export { DEP_UPDATE_SOURCE } from './sweep.js';

export function depUpdateProgram(deps: EngineDeps): BoardProgram {
  return {
    key: 'dep_update',
    title: 'Dependency-update bot',
    description: 'Refreshes lockfiles in a throwaway clone and opens an update task when they change.',
    role: 'system',
    trigger: 'interval',
    intervalSeconds: deps.config.depUpdateIntervalSeconds,
    scope: 'project',
    enabled: () => deps.flags.isEnabled('dep_update'),
    sweep: (cycle) => depUpdateSweep(deps, cycle),
  };
}
