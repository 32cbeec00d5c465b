/** Agent-to-agent conversations and messages, with the access matrix; every message published live. */
import type { Platform } from '../../platform/context.js';

export class A2aService {
  constructor(readonly platform: Platform) {}
}
