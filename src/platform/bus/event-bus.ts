/**
 * The event bus. Every publication travels through the cache store's pub/sub channel — in-process
 * without Redis, Redis with it — and every replica hands what arrives to its own local subscribers
 * once. So one replica and many behave alike: an event published on any replica reaches the
 * subscribers (and through them the sockets) of every replica, exactly once each.
 *
 * Publication is best-effort while the cache (Redis) is unreachable: the event is dropped, the
 * outage is logged once, and `publish` resolves — the write that raised the event has committed,
 * and its caller must not be told it failed. Live views catch up on their next read.
 */
import { randomUUID } from 'node:crypto';
import type { Cache } from '../cache/types.js';
import { OutageLog, type OutageLogger } from '../outage-log.js';
import type { BusEvent, EventMap, EventOf, EventType, PublishOptions } from './types.js';

export const EVENTS_CHANNEL = 'events';

type Handler = (event: BusEvent) => void | Promise<void>;

export interface EventBusOptions {
  cache: Cache;
  now?: () => Date;
  /** Called when a subscriber throws; the other subscribers still run. */
  onHandlerError?: (error: unknown, event: BusEvent) => void;
}

export class EventBus {
  private readonly handlers = new Map<string, Set<Handler>>();
  private unsubscribeChannel: (() => Promise<void>) | undefined;
  private readonly outage = new OutageLog('event bus (events are dropped while Redis is down)');

  constructor(private readonly options: EventBusOptions) {}

  /** Starts receiving publications (from this replica and the others). */
  async start(): Promise<void> {
    this.unsubscribeChannel ??= await this.options.cache.subscribe(EVENTS_CHANNEL, (message) =>
      this.receive(message),
    );
  }

  /**
   * Where an outage of the cache is logged: the app's logger, handed in by `buildApp` — the bus is
   * opened with the stores, before the app (and its logger) exists.
   */
  useLogger(log: OutageLogger): void {
    this.outage.useLogger(log);
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribeChannel;
    this.unsubscribeChannel = undefined;
    await unsubscribe?.();
  }

  async publish<K extends EventType>(
    type: K,
    data: EventMap[K],
    options: PublishOptions = {},
  ): Promise<EventOf<K>> {
    const event: EventOf<K> = {
      id: randomUUID(),
      type,
      data,
      timestamp: (this.options.now?.() ?? new Date()).toISOString(),
      correlation_id: options.correlationId ?? null,
    };
    await this.outage.failOpen(
      () => this.options.cache.publish(EVENTS_CHANNEL, JSON.stringify(event)),
      undefined,
    );
    return event;
  }

  /** Calls `handler` for every event of `type` (or of every type, with '*'); returns an unsubscribe. */
  subscribe<K extends EventType>(type: K, handler: (event: EventOf<K>) => void | Promise<void>): () => void;
  subscribe(type: '*', handler: Handler): () => void;
  subscribe(type: string, handler: Handler): () => void {
    let set = this.handlers.get(type);
    if (!set) {
      set = new Set();
      this.handlers.set(type, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  private receive(message: string): void {
    let event: BusEvent;
    try {
      event = JSON.parse(message) as BusEvent;
    } catch {
      return; // not ours to understand; nothing to deliver
    }
    if (typeof event?.type !== 'string') return;
    for (const handler of [...(this.handlers.get(event.type) ?? []), ...(this.handlers.get('*') ?? [])]) {
      Promise.resolve()
        .then(() => handler(event))
        .catch((error: unknown) => this.options.onHandlerError?.(error, event));
    }
  }
}

/** A bus on `cache`, already receiving. */
export async function startEventBus(
  cache: Cache,
  options: Omit<EventBusOptions, 'cache'> = {},
): Promise<EventBus> {
  const bus = new EventBus({ cache, ...options });
  await bus.start();
  return bus;
}
