/** The typed event bus (in-process, fanned out through Redis across replicas) and after-commit publishing. */
export { inTransaction, type PendingEvents, type Tx } from './after-commit.js';
export { EVENTS_CHANNEL, EventBus, type EventBusOptions, startEventBus } from './event-bus.js';
export type { BusEvent, EventMap, EventOf, EventType, PublishOptions } from './types.js';
