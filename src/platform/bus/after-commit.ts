/**
 * Events raised inside a database transaction are published only once it has committed, and never
 * for a transaction that rolled back: the work queues them, and `inTransaction` publishes the queue
 * after the commit returns.
 */
import type { Db } from '../db/client.js';
import type { EventBus } from './event-bus.js';
import type { EventMap, EventType, PublishOptions } from './types.js';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface PendingEvents {
  add<K extends EventType>(type: K, data: EventMap[K], options?: PublishOptions): void;
}

export async function inTransaction<T>(
  db: Db,
  bus: EventBus,
  work: (tx: Tx, events: PendingEvents) => Promise<T>,
): Promise<T> {
  const queued: { type: EventType; data: unknown; options: PublishOptions | undefined }[] = [];
  const events: PendingEvents = {
    add(type, data, options) {
      queued.push({ type, data, options });
    },
  };
  const result = await db.transaction((tx) => work(tx, events));
  for (const { type, data, options } of queued) {
    await bus.publish(type, data as EventMap[typeof type], options);
  }
  return result;
}
