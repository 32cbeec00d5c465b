/**
 * Live streams: the WebSocket endpoints and the bridge forwarding bus events to them. The events
 * are declared by the modules that raise them (their `events.ts`); the bridge table (frames.ts)
 * says which socket each forwarded event goes to.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import { startBridge } from './bridge.js';
import type { StreamsDeps } from './deps.js';
import { registerStreamRoutes } from './routes.js';
import { StreamsService } from './service.js';

export type { StreamsDeps } from './deps.js';
export { BRIDGE, type BridgedEvent, bodyExcerpt, EXCERPT_LIMIT } from './frames.js';
export { type Endpoint, StreamsService } from './service.js';

export interface StreamsModule extends ModuleFace {
  service: StreamsService;
}

export function createStreamsModule({ platform, deps }: ModuleInput<StreamsDeps>): StreamsModule {
  const service = new StreamsService(platform);
  const stopBridge = startBridge(platform.bus, service);
  return {
    service,
    registerRoutes: (app) => registerStreamRoutes(app, platform, deps, service),
    stop: stopBridge,
  };
}
