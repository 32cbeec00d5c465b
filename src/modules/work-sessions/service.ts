/** Work sessions: branch, commits, files and PR of an agent's work on a task. */
import type { Platform } from '../../platform/context.js';

export class WorkSessionsService {
  constructor(readonly platform: Platform) {}
}
