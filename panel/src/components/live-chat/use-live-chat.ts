/**
 * One live chat (the intake interviewer's or the secretary's) in the browser: start a session
 * (`POST …/live/start`), follow its server-sent events with an EventSource (same origin, so the
 * session cookie authenticates it), send a turn (`POST …/messages`) and stop. The session id is
 * kept in localStorage for 30 minutes, so a reload re-attaches while the server says it is alive;
 * the stream then replays the chat. A transport failure shows "Live connection lost" and does not
 * reconnect.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchClient } from '../../api/client';

export type ChatKind = 'prompter' | 'secretary';

export interface ChatItem {
  key: string;
  kind: 'user' | 'assistant' | 'tool_use' | 'draft' | 'batch' | 'directive' | 'created' | 'error';
  text?: string;
  data?: Record<string, unknown>;
  live?: boolean;
}

export type ChatState = 'none' | 'connecting' | 'live' | 'ended' | 'lost';

const TTL_MS = 30 * 60_000;
const storageKey = (kind: ChatKind) => `gaffer:${kind}:live`;
// Both chats have the same routes under their prefix; one path type serves both.
const path = <P extends string>(kind: ChatKind, p: P) => p.replace('/api/prompter/', `/api/${kind}/`) as P;

/** Keeps the session id (and when it was last used) for a reload within the TTL. */
const remember = (kind: ChatKind, sid: string) =>
  localStorage.setItem(storageKey(kind), JSON.stringify({ sid, at: Date.now() }));

const SHOWN = ['user', 'text', 'text_delta', 'tool_use', 'draft', 'batch', 'directive', 'created', 'error'];

export function useLiveChat(
  kind: ChatKind,
  onEvent?: (event: string, data: Record<string, unknown>) => void,
) {
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [items, setItems] = useState<ChatItem[]>([]);
  const [state, setState] = useState<ChatState>('none');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const source = useRef<EventSource | null>(null);
  const counter = useRef(0);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  const attach = useCallback(
    (sid: string) => {
      source.current?.close();
      setState('connecting');
      const es = new EventSource(`/api/${kind}/live/${sid}/stream`);
      source.current = es;
      es.onopen = () => setItems([]);
      const add = (item: Omit<ChatItem, 'key'>) =>
        setItems((list) => {
          const settled = list.map((i) => (i.live ? { ...i, live: false } : i));
          return [...settled, { ...item, key: `${++counter.current}` }];
        });
      for (const name of SHOWN) {
        es.addEventListener(name, (event) => {
          const raw = (event as MessageEvent).data as string | undefined;
          if (name === 'error' && !raw) return; // a transport failure: es.onerror
          const data = JSON.parse(raw ?? '{}') as Record<string, unknown>;
          onEventRef.current?.(name, data);
          if (name === 'text_delta') {
            setItems((list) => {
              const last = list.at(-1);
              if (last?.kind === 'assistant' && last.live)
                return [...list.slice(0, -1), { ...last, text: `${last.text ?? ''}${String(data.text)}` }];
              return [
                ...list,
                { key: `${++counter.current}`, kind: 'assistant', text: String(data.text), live: true },
              ];
            });
          } else if (name === 'text') add({ kind: 'assistant', text: String(data.text ?? '') });
          else if (name === 'user') add({ kind: 'user', text: String(data.text ?? '') });
          else if (name === 'error') add({ kind: 'error', text: String(data.message ?? 'error'), data });
          else add({ kind: name as ChatItem['kind'], data });
        });
      }
      es.addEventListener('ready', (event) => {
        const data = JSON.parse((event as MessageEvent).data as string) as { status: string; busy: boolean };
        setBusy(data.busy);
        setState(data.status === 'active' ? 'live' : 'ended');
      });
      es.addEventListener('turn_end', () => {
        setBusy(false);
        setItems((list) => list.map((i) => (i.live ? { ...i, live: false } : i)));
      });
      es.addEventListener('ended', () => {
        es.close();
        setBusy(false);
        setState('ended');
        localStorage.removeItem(storageKey(kind));
      });
      es.onerror = () => {
        if (es.readyState === EventSource.CLOSED || source.current === es) {
          es.close();
          setBusy(false);
          setState((s) => (s === 'ended' ? s : 'lost'));
        }
      };
    },
    [kind],
  );

  // A reload re-attaches to a session the server still has alive; without a remembered one, a
  // chat already live on another device is joined rather than a competing one started.
  useEffect(() => {
    const join = (sid: string) => {
      remember(kind, sid);
      setSessionId(sid);
      attach(sid);
    };
    const joinActive = () =>
      fetchClient.GET(path(kind, '/api/prompter/live/active')).then(({ data }) => {
        if (data?.active && data.session_id) join(data.session_id);
      });
    const stored = localStorage.getItem(storageKey(kind));
    const { sid, at } = stored ? (JSON.parse(stored) as { sid: string; at: number }) : { sid: '', at: 0 };
    if (!sid || Date.now() - at > TTL_MS) {
      localStorage.removeItem(storageKey(kind));
      void joinActive();
    } else {
      void fetchClient
        .GET(path(kind, '/api/prompter/live/{sid}/status'), { params: { path: { sid } } })
        .then(({ data }) => {
          if (data?.status === 'active') join(sid);
          else {
            localStorage.removeItem(storageKey(kind));
            return joinActive();
          }
        });
    }
    return () => source.current?.close();
  }, [kind, attach]);

  const begin = useCallback(
    (sid: string) => {
      remember(kind, sid);
      setSessionId(sid);
      setProblem(null);
      attach(sid);
    },
    [attach, kind],
  );

  const send = useCallback(
    async (text: string) => {
      if (!sessionId || busy || !text.trim()) return false;
      setBusy(true);
      const { error } = await fetchClient.POST(path(kind, '/api/prompter/live/{sid}/messages'), {
        params: { path: { sid: sessionId } },
        body: { text },
      });
      if (error) {
        setBusy(false);
        setProblem(error);
        return false;
      }
      remember(kind, sessionId);
      setProblem(null);
      return true;
    },
    [sessionId, busy, kind],
  );

  const stop = useCallback(async () => {
    if (!sessionId) return;
    await fetchClient.POST(path(kind, '/api/prompter/live/{sid}/stop'), {
      params: { path: { sid: sessionId } },
    });
  }, [sessionId, kind]);

  const reset = useCallback(() => {
    source.current?.close();
    localStorage.removeItem(storageKey(kind));
    setSessionId(null);
    setItems([]);
    setState('none');
    setBusy(false);
    setProblem(null);
  }, [kind]);

  return { sessionId, items, state, busy, problem, setProblem, begin, send, stop, reset };
}
