/** Live streams: the WebSocket endpoints and the bridge forwarding bus events to them. */
import type { Platform } from '../../platform/context.js';

export class StreamsService {
  constructor(readonly platform: Platform) {}
}
