/** The infrastructure handed to every module: the parts with side effects, opened once per process. */

import type { Config } from '../config.js';
import type { EventBus } from './bus/event-bus.js';
import type { Cache, Locks } from './cache/types.js';
import type { Clock } from './clock.js';
import type { Database } from './db/client.js';
import type { Logger } from './logger.js';

export interface Platform {
  readonly config: Config;
  readonly database: Database;
  readonly cache: Cache;
  readonly locks: Locks;
  /** Typed events, fanned out to every replica through the cache's pub/sub. */
  readonly bus: EventBus;
  readonly clock: Clock;
  /** HMAC secret for tokens and the key source for encryption at rest. Never logged. */
  readonly secret: string;
  /** The app's logger (level and redactions set once in `buildApp`): the one way a module logs. */
  readonly log: Logger;
}

/** What the server (or a test) opens before the app exists; `buildApp` adds the app's logger. */
export type PlatformStores = Omit<Platform, 'log'>;
