/**
 * Whether the browser has a panel session. Starts unknown; `GET /api/auth/session` settles it, and
 * any 401 from the API flips it to signed out (the sign-in page then says how to get a fresh link).
 */
import { useSyncExternalStore } from 'react';

export type SessionState = 'unknown' | 'signed_in' | 'signed_out';

let state: SessionState = 'unknown';
const listeners = new Set<() => void>();

function set(next: SessionState) {
  if (state === next) return;
  state = next;
  for (const listener of listeners) listener();
}

export const noteSignedOut = () => set('signed_out');
export const noteSignedIn = () => set('signed_in');

export function useSessionState(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
