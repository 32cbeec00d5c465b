/**
 * The bridge: one forwarder per bridged event type, subscribed on the platform bus. The bus hands
 * each publication (from any replica) to this replica once, and the forwarder broadcasts it to this
 * replica's sockets of the event's channel.
 */
import type { EventBus } from '../../platform/bus/index.js';
import { BRIDGE, type BridgedEvent, routeEvent } from './frames.js';
import type { StreamsService } from './service.js';

/** Subscribes the forwarders; returns a function that unsubscribes them all. */
export function startBridge(bus: EventBus, service: StreamsService): () => void {
  const unsubscribes = (Object.keys(BRIDGE) as BridgedEvent[]).map((type) =>
    bus.subscribe(type, (event) => {
      const routed = routeEvent(event);
      if (routed) service.broadcast(routed.channel, routed.frame);
    }),
  );
  return () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}
