/**
 * The panel's live layer. `<LiveProvider>` (mounted once, in main.tsx) holds the one `/ws/system`
 * socket and the CEO's `/ws/notifications` socket for the life of the page, turns their events into
 * query invalidations (invalidation.ts), and refetches everything after a reconnect. Views use:
 *
 *   useConnectionState()              'live' | 'reconnecting' | 'polling' (shown in the header)
 *   useLiveEvent(type, handler)       react to one /ws/system event type
 *   usePollInterval(ms)               a refetchInterval that is on only while the socket is down
 *   useAgentStream(agentId, handler)  an agent's /ws/agents/{id} frames, socket opened on demand
 */
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ConnectionState } from './backoff';
import { INVALIDATES } from './invalidation';
import { type Frame, type LiveSocket, sharedSocket } from './socket';

export const CEO_SLUG = 'ceo';
export const SYSTEM_PATH = '/ws/system';
export const CEO_NOTIFICATIONS_PATH = `/ws/notifications/${CEO_SLUG}?agent_id=${CEO_SLUG}`;

let systemSocket: LiveSocket | null = null;

/** The one /ws/system socket of the page, opened on first use and kept for the page's life. */
function currentSystemSocket(): LiveSocket {
  systemSocket ??= sharedSocket(SYSTEM_PATH).socket;
  return systemSocket;
}

function useSocketFrames(socket: LiveSocket | null, handler: (frame: Frame) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => socket?.onFrame((frame) => latest.current(frame)), [socket]);
}

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const system = currentSystemSocket();
    const notifications = sharedSocket(CEO_NOTIFICATIONS_PATH);
    const invalidate = (frame: Frame) => {
      for (const key of INVALIDATES[frame.type] ?? []) void queryClient.invalidateQueries({ queryKey: key });
    };
    const unsubscribe = [system.onFrame(invalidate), notifications.socket.onFrame(invalidate)];
    // Events may have been missed while the socket was down: everything on screen is refetched.
    system.onReconnect = () => void queryClient.invalidateQueries();
    return () => {
      for (const stop of unsubscribe) stop();
      system.onReconnect = undefined;
      notifications.release();
    };
  }, [queryClient]);
  return children;
}

export function useConnectionState(): ConnectionState {
  const socket = currentSystemSocket();
  return useSyncExternalStore(
    (listener) => socket.onState(listener),
    () => socket.state,
  );
}

export function useLiveEvent(type: string, handler: (frame: Frame) => void): void {
  useSocketFrames(currentSystemSocket(), (frame) => {
    if (frame.type === type) handler(frame);
  });
}

/** `ms` while the socket is down (state `polling`), else false: pass as a query's refetchInterval. */
export function usePollInterval(ms: number): number | false {
  return useConnectionState() === 'polling' ? ms : false;
}

/** An agent's output and lifecycle frames; the socket is open while some view uses it. */
export function useAgentStream(agentId: string, handler: (frame: Frame) => void): ConnectionState {
  const path = `/ws/agents/${encodeURIComponent(agentId)}?viewer_id=${CEO_SLUG}`;
  const [socket, setSocket] = useState<LiveSocket | null>(null);
  useEffect(() => {
    const held = sharedSocket(path);
    setSocket(held.socket);
    return () => {
      held.release();
      setSocket(null);
    };
  }, [path]);
  useSocketFrames(socket, handler);
  return useSyncExternalStore(
    (listener) => socket?.onState(listener) ?? (() => {}),
    () => socket?.state ?? 'reconnecting',
  );
}
