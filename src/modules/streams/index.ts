/** Live streams: the WebSocket endpoints and the bridge forwarding bus events to them. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { StreamsDeps } from '../registry.js';
import { StreamsService } from './service.js';

export { StreamsService };

export interface StreamsModule {
  service: StreamsService;
  registerRoutes(app: FastifyInstance): void;
}

export function createStreamsModule(platform: Platform, _deps: StreamsDeps): StreamsModule {
  return { service: new StreamsService(platform), registerRoutes() {} };
}
