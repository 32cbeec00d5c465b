/**
 * The sockets of this replica, grouped by channel, and the broadcast that the bridge calls. A frame
 * is serialized and UTF-8 encoded once per broadcast (a string would be encoded again for every
 * socket) and handed to each socket without waiting for any of them.
 */
import type { WebSocket } from 'ws';
import type { Platform } from '../../platform/context.js';
import type { Channel } from './frames.js';
import { LiveSocket } from './live-socket.js';

/** The three endpoints, as counted. */
export type Endpoint = 'system' | 'agents' | 'notifications';

const endpointOf = (channel: Channel): Endpoint => channel.split(':', 1)[0] as Endpoint;

export class StreamsService {
  private readonly channels = new Map<Channel, Set<LiveSocket>>();

  constructor(readonly platform: Platform) {}

  /** Takes an accepted socket into `channel`; it leaves again when it closes, errs or is dropped. */
  attach(ws: WebSocket, channel: Channel): LiveSocket {
    let members = this.channels.get(channel);
    if (!members) {
      members = new Set();
      this.channels.set(channel, members);
    }
    const set = members;
    const live = new LiveSocket(ws, {
      idleTimeoutMs: this.platform.config.wsIdleTimeoutSeconds * 1000,
      queueLimit: this.platform.config.wsSendQueueLimit,
      onGone: (socket) => {
        set.delete(socket);
        if (set.size === 0 && this.channels.get(channel) === set) this.channels.delete(channel);
      },
    });
    set.add(live);
    return live;
  }

  /** Sends `frame` to every socket of `channel` on this replica; returns how many it was handed to. */
  broadcast(channel: Channel, frame: object): number {
    const members = this.channels.get(channel);
    if (!members || members.size === 0) return 0;
    const bytes = Buffer.from(JSON.stringify(frame));
    let handed = 0;
    // A socket dropped mid-loop leaves the set at once; iterating the live set then skips nothing.
    for (const socket of members) {
      socket.send(bytes);
      if (socket.open) handed += 1;
    }
    return handed;
  }

  /** Open sockets per endpoint on this replica. */
  counts(): Record<Endpoint, number> {
    const counts: Record<Endpoint, number> = { system: 0, agents: 0, notifications: 0 };
    for (const [channel, members] of this.channels) counts[endpointOf(channel)] += members.size;
    return counts;
  }

  /** Open sockets in one channel on this replica. */
  countIn(channel: Channel): number {
    return this.channels.get(channel)?.size ?? 0;
  }
}
