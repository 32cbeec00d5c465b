/**
 * The local side of pub/sub, shared by the memory and Redis caches: which handlers listen on which
 * channel, and delivery that isolates handlers from each other (one that throws never stops the
 * rest, and a handler removed before delivery is not called).
 */

export type MessageHandler = (message: string) => void;
export type HandlerErrorReporter = (error: unknown, channel: string) => void;

export interface Subscription {
  readonly channel: string;
  readonly handler: MessageHandler;
  active: boolean;
}

export class SubscriptionRegistry {
  readonly #byChannel = new Map<string, Set<Subscription>>();
  readonly #reportError: HandlerErrorReporter;

  constructor(reportError: HandlerErrorReporter = () => {}) {
    this.#reportError = reportError;
  }

  /** Registers one subscription; the same handler added twice is two subscriptions. */
  add(channel: string, handler: MessageHandler): Subscription {
    const subscription: Subscription = { channel, handler, active: true };
    let subscriptions = this.#byChannel.get(channel);
    if (!subscriptions) {
      subscriptions = new Set();
      this.#byChannel.set(channel, subscriptions);
    }
    subscriptions.add(subscription);
    return subscription;
  }

  /** Removes a subscription; true when this removal left its channel with no subscriber. */
  remove(subscription: Subscription): boolean {
    if (!subscription.active) return false;
    subscription.active = false;
    const subscriptions = this.#byChannel.get(subscription.channel);
    if (!subscriptions) return false;
    subscriptions.delete(subscription);
    if (subscriptions.size > 0) return false;
    this.#byChannel.delete(subscription.channel);
    return true;
  }

  channels(): string[] {
    return [...this.#byChannel.keys()];
  }

  /** The subscriptions listening on `channel` right now (a snapshot, safe to deliver to later). */
  listeners(channel: string): Subscription[] {
    const subscriptions = this.#byChannel.get(channel);
    return subscriptions ? [...subscriptions] : [];
  }

  /** Calls each still-active handler with `message`; a throwing handler is reported and skipped. */
  deliver(subscriptions: readonly Subscription[], message: string): void {
    for (const subscription of subscriptions) {
      if (!subscription.active) continue;
      try {
        subscription.handler(message);
      } catch (error) {
        this.#reportError(error, subscription.channel);
      }
    }
  }

  clear(): void {
    for (const subscriptions of this.#byChannel.values()) {
      for (const subscription of subscriptions) subscription.active = false;
    }
    this.#byChannel.clear();
  }
}
