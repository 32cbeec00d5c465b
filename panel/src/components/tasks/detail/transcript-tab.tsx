/**
 * Transcript: what the agent working the task printed, live. The runs of the task's agent (its
 * claimant, else its assignee; another of them can be picked) come from /api/stream/{agent}; the
 * chosen run's transcript from /api/stream/{agent}/runs/{run}, and new output arrives over
 * /ws/agents/{agent} (useAgentStream) without a reload. A run that failed says why (the CLI's own words).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { $api, queryKey } from '../../../api/client';
import { useAgentStream } from '../../../live/live';
import { EmptyState, Loading } from '../../ui/page';
import { ProblemNote } from '../../ui/problem-note';
import { RelativeTime } from '../../ui/time';
import type { Lookups } from '../lookups';
import type { Task } from './use-task';

interface Chunk {
  seq: number;
  stream: string;
  text: string;
}

export function TranscriptTab({ task, lookups }: { task: Task; lookups: Lookups }) {
  const candidates = [
    ...new Set([task.active_claimant_id, task.claimed_by, task.assigned_to].filter(Boolean)),
  ] as string[];
  const [agentId, setAgentId] = useState(candidates[0] ?? null);
  if (!agentId)
    return (
      <div data-testid="transcript">
        <EmptyState>
          No agent has worked on this task yet: its transcript appears once one is spawned for it.
        </EmptyState>
      </div>
    );
  return (
    <div className="space-y-3" data-testid="transcript">
      {candidates.length > 1 && (
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="sr-only">Agent</legend>
          {candidates.map((id) => (
            <label key={id} className="inline-flex items-center gap-1">
              <input
                type="radio"
                name="transcript-agent"
                checked={id === agentId}
                onChange={() => setAgentId(id)}
              />
              {lookups.agent(id)}
            </label>
          ))}
        </fieldset>
      )}
      <AgentRuns key={agentId} agentId={agentId} taskId={task.id} agentName={lookups.agent(agentId)} />
    </div>
  );
}

function AgentRuns({ agentId, taskId, agentName }: { agentId: string; taskId: string; agentName: string }) {
  const queryClient = useQueryClient();
  const runs = $api.useQuery('get', '/api/stream/{agent_id}', {
    params: { path: { agent_id: agentId }, query: { limit: 50 } },
  });
  const ofTask = (runs.data?.runs ?? []).filter((r) => r.task_id === taskId);
  const run = ofTask[0];
  const [live, setLive] = useState<{ runId: string | undefined; chunks: Chunk[] }>({
    runId: undefined,
    chunks: [],
  });
  const state = useAgentStream(agentId, (frame) => {
    if (frame.task_id !== taskId) return;
    if (frame.type === 'AGENT_OUTPUT' && frame.run_id === run?.run_id && typeof frame.text === 'string') {
      const chunk = {
        seq: typeof frame.seq === 'number' ? frame.seq : Number.MAX_SAFE_INTEGER,
        stream: String(frame.stream),
        text: frame.text,
      };
      // Chunks of another run (an earlier one still held here) are dropped.
      const runId = String(frame.run_id);
      setLive((current) => ({
        runId,
        chunks: current.runId === runId ? [...current.chunks, chunk] : [chunk],
      }));
    } else if (frame.type !== 'AGENT_OUTPUT') {
      void queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/stream/{agent_id}') });
    }
  });
  if (runs.error) return <ProblemNote error={runs.error} prefix="Could not load the agent's runs" />;
  if (!runs.data) return <Loading what="the runs" />;
  if (!run)
    return (
      <EmptyState>
        {agentName} has no run for this task yet; its output appears here live when one starts.
      </EmptyState>
    );
  return (
    <div className="space-y-2">
      <p className="text-muted">
        {agentName} · run <span className="font-mono text-xs">{run.run_id.slice(0, 8)}</span> · {run.provider}
        {run.model ? ` (${run.model})` : ''} · {run.status} · started <RelativeTime at={run.started_at} /> ·{' '}
        <span data-testid="transcript-socket">{state === 'live' ? 'live' : state}</span>
      </p>
      {run.status === 'failed' && (
        <p
          role="status"
          data-testid="run-failure"
          className="rounded-md bg-danger-bg px-3 py-2 text-danger-text"
        >
          The run failed{run.detail ? `: ${run.detail}` : '.'}
        </p>
      )}
      <RunTranscript
        agentId={agentId}
        runId={run.run_id}
        live={live.runId === run.run_id ? live.chunks : []}
      />
    </div>
  );
}

function RunTranscript({ agentId, runId, live }: { agentId: string; runId: string; live: Chunk[] }) {
  const transcript = $api.useQuery('get', '/api/stream/{agent_id}/runs/{run_id}', {
    params: { path: { agent_id: agentId, run_id: runId }, query: { limit: 1000 } },
  });
  const box = useRef<HTMLDivElement>(null);
  const fetched = transcript.data?.chunks ?? [];
  const last = fetched.at(-1)?.seq ?? 0;
  const chunks: Chunk[] = [...fetched, ...live.filter((c) => c.seq > last)];
  // Follow the output: keep the box scrolled to its end as chunks arrive.
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  });
  if (transcript.error)
    return <ProblemNote error={transcript.error} prefix="Could not load the transcript" />;
  if (!transcript.data) return <Loading what="the transcript" />;
  return (
    <div ref={box} className="max-h-[60vh] overflow-auto rounded-lg border border-border bg-surface-2 p-3">
      {chunks.length === 0 ? (
        <p className="text-muted">No output yet.</p>
      ) : (
        <pre className="font-mono text-xs whitespace-pre-wrap break-words">
          {chunks.map((c) => (
            <span
              key={`${c.seq}-${c.text.length}`}
              className={c.stream === 'stderr' ? 'text-danger' : c.stream === 'system' ? 'text-muted' : ''}
            >
              {c.text}
            </span>
          ))}
        </pre>
      )}
    </div>
  );
}
