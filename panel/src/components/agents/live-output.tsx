/**
 * An agent's output, live: the latest run's transcript from REST, then every AGENT_OUTPUT frame of
 * that run from `/ws/agents/{id}` as it arrives (deduplicated by sequence number). Lifecycle frames
 * (spawned, stopped, waiting, error) refetch the run state and the runs; the latest is named above
 * the output.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { $api, queryKey } from '../../api/client';
import { useAgentStream } from '../../live/live';
import type { Frame } from '../../live/socket';
import { ProblemNote } from '../ui/problem-note';

interface Line {
  key: string;
  runId: string;
  seq: number | null;
  stream: string;
  text: string;
}

/** Most lines kept on screen; older ones stay in the transcript (`/api/stream/...`). */
const KEEP = 2_000;

/** Lifecycle frames after which the agent's run, list entry and card are read again. */
const LIFECYCLE = new Set([
  'AGENT_SPAWNED',
  'AGENT_STOPPED',
  'AGENT_WAITING',
  'AGENT_RESUMED',
  'AGENT_ERROR',
]);

export function LiveOutput({
  agentId,
  slug,
  runId,
}: {
  agentId: string;
  slug: string;
  runId: string | null;
}) {
  const queryClient = useQueryClient();
  const [live, setLive] = useState<Line[]>([]);
  const seed = $api.useQuery(
    'get',
    '/api/stream/{agent_id}/runs/{run_id}',
    { params: { path: { agent_id: agentId, run_id: runId ?? '' }, query: { limit: 1000 } } },
    { enabled: runId !== null },
  );
  const connection = useAgentStream(agentId, (frame: Frame) => {
    if (frame.type === 'AGENT_OUTPUT') {
      const line: Line = {
        key: `${String(frame.run_id)}:${String(frame.seq ?? Math.random())}`,
        runId: String(frame.run_id),
        seq: typeof frame.seq === 'number' ? frame.seq : null,
        stream: String(frame.stream),
        text: String(frame.text),
      };
      setLive((lines) => [...lines.slice(-KEEP), line]);
      if (line.runId !== runId)
        void queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/stream/{agent_id}') });
      return;
    }
    if (!LIFECYCLE.has(frame.type)) return;
    for (const path of ['/api/orchestrator/agents', '/api/stream/{agent_id}', '/api/agents/{id}'] as const)
      void queryClient.invalidateQueries({ queryKey: queryKey('get', path) });
  });

  const seeded = runId !== null && seed.data ? seed.data.chunks : [];
  const lastSeeded = seeded.at(-1)?.seq ?? 0;
  const lines: Line[] = [
    ...seeded.map((c) => ({
      key: `${runId}:${c.seq}`,
      runId: runId ?? '',
      seq: c.seq,
      stream: c.stream,
      text: c.text,
    })),
    ...live.filter((l) => l.runId === runId && (l.seq === null || l.seq > lastSeeded)),
  ];

  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the end whenever lines arrive.
  useEffect(() => {
    if (box.current && stick.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines.length]);

  return (
    <div>
      <p className="mb-2 text-xs text-muted" data-testid="output-connection" data-state={connection}>
        {connection === 'live' ? 'Live' : 'Reconnecting'} ·{' '}
        <span className="font-mono">/ws/agents/{slug}</span>
        {runId && (
          <>
            {' '}
            · run{' '}
            <span className="font-mono" title={runId}>
              {runId.slice(0, 8)}
            </span>
          </>
        )}
      </p>
      {seed.error && <ProblemNote error={seed.error} prefix="Could not load the transcript" />}
      <div
        ref={box}
        role="log"
        aria-live="off"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must be reachable by keyboard.
        tabIndex={0}
        aria-label={`Output of ${slug}`}
        data-testid="live-output"
        onScroll={(event) => {
          const el = event.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        className="h-80 overflow-auto rounded-md border border-border bg-surface-2 p-3 font-mono text-xs whitespace-pre-wrap break-words"
      >
        {lines.length === 0
          ? runId === null
            ? 'No runs yet. Output appears here as soon as the agent is spawned.'
            : 'No output yet.'
          : lines.map((line) => (
              <span key={line.key} className={line.stream === 'stdout' ? '' : 'text-muted'}>
                {line.text}
              </span>
            ))}
      </div>
    </div>
  );
}
