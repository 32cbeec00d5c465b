/**
 * The bridge table: for each bridged event type, the socket channel it goes to and the frame the
 * sockets receive. The events and their payloads are declared by the modules that raise them
 * (`<module>/events.ts`, merged into the bus's EventMap); an event with no row here (TASK_CHANGED)
 * is internal. One place, pure functions only, so every mapping is unit-tested on its own.
 */
import type { BusEvent, EventMap, EventOf, EventType } from '../../platform/bus/index.js';

/** A set of sockets that receive the same frames: the system stream, one agent's, one inbox. */
export type Channel = 'system' | `agents:${string}` | `notifications:${string}`;

export const SYSTEM_CHANNEL: Channel = 'system';
export const agentChannel = (agentId: string): Channel => `agents:${agentId.trim().toLowerCase()}`;
export const notificationsChannel = (agentId: string): Channel =>
  `notifications:${agentId.trim().toLowerCase()}`;

/** The longest `body_excerpt` of an `a2a.message` frame, in characters (code points). */
export const EXCERPT_LIMIT = 240;

/** The body itself when it fits, else its first 240 characters right-trimmed plus one `…`. */
export function bodyExcerpt(body: string): string {
  let count = 0;
  let cut = 0;
  for (const char of body) {
    if (count === EXCERPT_LIMIT) return `${body.slice(0, cut).trimEnd()}…`;
    count += 1;
    cut += char.length;
  }
  return body;
}

type Frame = Record<string, unknown> & { type: string };

/** `{ type, ...data }`: the spec's default frame shape (the event type always wins over a `type` field). */
export function plainFrame(event: BusEvent<string, object>): Frame {
  return { ...event.data, type: event.type };
}

/** A notification carries a `type` of its own; it travels as `notification_type` so neither is lost. */
export function notificationSentFrame(event: EventOf<'NOTIFICATION_SENT'>): Frame {
  const { type: notificationType, ...rest } = event.data;
  return { type: event.type, ...rest, notification_type: notificationType };
}

/** The system stream's agent-to-agent message: identifiers and a capped excerpt, never the full body. */
export function a2aMessageFrame(event: EventOf<'A2A_MESSAGE_SENT'>): Frame {
  const d = event.data;
  return {
    type: 'a2a.message',
    conversation_id: d.conversation_id,
    message_id: d.message_id,
    task_id: d.task_id,
    sender_slug: d.sender_slug,
    recipient_slug: d.recipient_slug,
    body_excerpt: bodyExcerpt(d.body),
    timestamp: event.timestamp,
  };
}

export interface BridgeEntry<K extends keyof EventMap> {
  channel(data: EventMap[K]): Channel;
  frame(event: EventOf<K & string>): Frame;
}

const toSystem = () => SYSTEM_CHANNEL;
const toAgent = (data: { agent_id: string }) => agentChannel(data.agent_id);
const toRecipient = (data: { recipient_id: string }) => notificationsChannel(data.recipient_id);

/** Every event the streams forward, with its socket and frame. A new live event gets a row here. */
export const BRIDGE = {
  RATE_LIMIT_HIT: { channel: toSystem, frame: plainFrame },
  RATE_LIMIT_LIFTED: { channel: toSystem, frame: plainFrame },
  USAGE_SNAPSHOT: { channel: toSystem, frame: plainFrame },
  A2A_MESSAGE_SENT: { channel: toSystem, frame: a2aMessageFrame },
  NOTIFICATION_SENT: { channel: toRecipient, frame: notificationSentFrame },
  NOTIFICATION_ACKED: { channel: toRecipient, frame: plainFrame },
  AGENT_SPAWNED: { channel: toAgent, frame: plainFrame },
  AGENT_STOPPED: { channel: toAgent, frame: plainFrame },
  AGENT_WAITING: { channel: toAgent, frame: plainFrame },
  AGENT_RESUMED: { channel: toAgent, frame: plainFrame },
  AGENT_ERROR: { channel: toAgent, frame: plainFrame },
  AGENT_OUTPUT: { channel: toAgent, frame: plainFrame },
  MAINTENANCE_PAUSE_CHANGED: { channel: toSystem, frame: plainFrame },
  TASK_CHANGED: { channel: toSystem, frame: plainFrame },
} satisfies { [K in EventType]?: BridgeEntry<K> };

/** The events the streams forward: the rows of the bridge table. */
export type BridgedEvent = keyof typeof BRIDGE;

/** Where an event goes and what is sent, or null for an event the streams do not carry. */
export function routeEvent(event: BusEvent): { channel: Channel; frame: Frame } | null {
  if (!Object.hasOwn(BRIDGE, event.type)) return null;
  const entry = BRIDGE[event.type as BridgedEvent] as unknown as BridgeEntry<BridgedEvent>;
  return {
    channel: entry.channel(event.data as never),
    frame: entry.frame(event as EventOf<BridgedEvent>),
  };
}
