/**
 * The live-chat bridge the intake interviewer and the secretary share: persisted sessions and
 * turns, the in-memory live part streaming the model's reply as server-sent events, the shared
 * routes (stream, messages, stop, status), the relay to the other replicas' streams and the idle
 * reaper loop. Not a module of its own in the
 * registry: each chat builds its bridge here with its agent, prompt and tools.
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { ModelClient } from '../../platform/llm/index.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import { type ChatAgent, LiveChatBridge } from './bridge.js';
import { ChatRelay } from './relay.js';
import { registerLiveChatRoutes } from './routes.js';
import { LiveChatStore } from './store.js';

export { SessionParams, SessionStarted } from './api-schemas.js';
export type { ChatAgent, ChatEvent, StreamListener, ToolOutcome } from './bridge.js';
export { LiveChatBridge } from './bridge.js';

export type { SessionRow, Turn } from './store.js';
export { type ToolInputCheck, toolInput } from './tool-input.js';

/** How often the reaper looks for idle sessions. */
const REAP_INTERVAL_MS = 60_000;

export interface LiveChatDeps {
  scheduler: Scheduler;
  clientFor(subject: { id: string; role: string }): Promise<ModelClient>;
}

export interface LiveChat {
  bridge: LiveChatBridge;
  /** The shared routes under `prefix` (`/api/prompter/live`). */
  registerRoutes(app: FastifyInstance, prefix: string, tags: string[]): void;
  /** Hears the other replicas (the owning module's start and stop). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A chat of `kind` (`prompter`, `secretary`), its idle reaper registered as `<kind>.live-reap`. */
export function createLiveChat(
  platform: Platform,
  kind: string,
  agent: ChatAgent,
  deps: LiveChatDeps,
): LiveChat {
  const store = new LiveChatStore(platform.database.db, platform.clock, kind);
  const bridge = new LiveChatBridge(store, agent, {
    clientFor: deps.clientFor,
    idleMs: platform.config.liveChatIdleSeconds * 1000,
    locks: platform.locks,
    relay: new ChatRelay({ fanout: platform.cache, channel: `live-chat.${kind}`, log: platform.log }),
  });
  deps.scheduler.register({
    name: `${kind}.live-reap`,
    intervalMs: REAP_INTERVAL_MS,
    run: async () => {
      await bridge.reapIdle(platform.clock.now());
    },
  });
  return {
    bridge,
    registerRoutes: (app, prefix, tags) => registerLiveChatRoutes(app, { prefix, tags, what: kind, bridge }),
    start: () => bridge.startRelay(),
    stop: () => bridge.stopRelay(),
  };
}
