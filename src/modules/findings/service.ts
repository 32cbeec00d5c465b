/** The findings ledger of review rounds on a task. */
import type { Platform } from '../../platform/context.js';

export class FindingsService {
  constructor(readonly platform: Platform) {}
}
