/**
 * A live chat across replicas. A reply streams from the replica that runs its model call, while the
 * CEO's stream may be held by another (a round-robin proxy sends the message to one replica and the
 * stream to the next): every event a bridge shows its own streams it also publishes on the chat's
 * channel of the cache's pub/sub (Redis across replicas, in-process without it), and each replica
 * hands what the others published to its own streams of that session. A session that ends (stopped,
 * reaped) is published too, so the replica running its reply cancels it and every replica closes
 * its streams. Best-effort like the event bus: while Redis is down other replicas' streams miss
 * events (the outage is logged once), and a reconnecting stream replays the persisted turns.
 */
import { randomUUID } from 'node:crypto';
import type { Cache } from '../../platform/cache/types.js';
import { OutageLog, type OutageLogger } from '../../platform/outage-log.js';
import type { ChatEvent } from './bridge.js';

/** What one replica tells the others about a session: an event its streams were sent, or its end. */
export type Relayed = { session: string } & ({ event: ChatEvent } | { ended: string });

export interface ChatRelayDeps {
  fanout: Pick<Cache, 'publish' | 'subscribe'>;
  /** The chat's channel (`live-chat.<kind>`). */
  channel: string;
  log?: OutageLogger;
}

export class ChatRelay {
  readonly #origin = randomUUID();
  readonly #outage: OutageLog;
  #unsubscribe: (() => Promise<void>) | undefined;

  constructor(private readonly deps: ChatRelayDeps) {
    this.#outage = new OutageLog(
      `live chat relay on ${deps.channel} (other replicas' streams miss events)`,
      deps.log,
    );
  }

  /** Hands `receive` what the other replicas publish (never this one's own). */
  async start(receive: (message: Relayed) => void): Promise<void> {
    this.#unsubscribe ??= await this.deps.fanout.subscribe(this.deps.channel, (raw) => {
      const message = parse(raw);
      if (message && message.origin !== this.#origin) receive(message.relayed);
    });
  }

  async stop(): Promise<void> {
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = undefined;
    await unsubscribe?.();
  }

  /** Publishes without waiting; a failure to reach the cache is logged once per outage. */
  publish(relayed: Relayed): void {
    const message = JSON.stringify({ origin: this.#origin, relayed });
    this.#outage
      .failOpen(() => this.deps.fanout.publish(this.deps.channel, message), undefined)
      .catch((error: unknown) =>
        this.deps.log?.warn({ err: error }, 'live chat relay: a publication failed'),
      );
  }
}

function parse(raw: string): { origin: string; relayed: Relayed } | null {
  try {
    const value = JSON.parse(raw) as {
      origin?: unknown;
      relayed?: Partial<Relayed> & Record<string, unknown>;
    };
    const relayed = value?.relayed;
    if (typeof value?.origin !== 'string' || typeof relayed?.session !== 'string') return null;
    const event = relayed.event as ChatEvent | undefined;
    if (
      typeof relayed.ended === 'string' ||
      (typeof event?.event === 'string' && typeof event.data === 'object')
    )
      return { origin: value.origin, relayed: relayed as Relayed };
    return null;
  } catch {
    return null;
  }
}
