/**
 * Event types and their payloads. Modules add their events by declaration merging:
 *
 *   declare module '../../platform/bus/types.js' {
 *     interface EventMap { NOTIFICATION_SENT: { notification_id: string; recipient_id: string } }
 *   }
 *
 * so `publish` and `subscribe` are checked against the payload of each type.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the modules that own the events
export interface EventMap {}

export type EventType = keyof EventMap & string;

export interface BusEvent<T extends string = string, D = unknown> {
  /** Unique per publication; consumers may use it to drop duplicates. */
  readonly id: string;
  readonly type: T;
  readonly data: D;
  /** ISO-8601 UTC time of publication. */
  readonly timestamp: string;
  /** The request (or sweep) that caused the event, when there is one. */
  readonly correlation_id: string | null;
}

export type EventOf<K extends EventType> = BusEvent<K, EventMap[K]>;

export interface PublishOptions {
  correlationId?: string | null;
}
