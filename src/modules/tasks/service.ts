/** Tasks: creation, reads, lifecycle transitions, atomic claims, audit trail, CEO god mode. */
import type { Platform } from '../../platform/context.js';

export class TasksService {
  constructor(readonly platform: Platform) {}
}
