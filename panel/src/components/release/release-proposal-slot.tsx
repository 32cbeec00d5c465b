/**
 * The release proposal on the inbox (PANEL.md sketch: first card). Reads `GET /api/release/proposal`:
 * 404 = no proposal (nothing shown); any other error is shown, never an empty card. While an approve
 * runs the proposal is polled every 2 s; when it is no longer open the proposal task tells how it
 * ended: completed → a green "published" line that leaves after a while (or on Dismiss).
 */
import { CircleCheck } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { $api } from '../../api/client';
import { problemOf } from '../../api/problem';
import { usePollInterval } from '../../live/live';
import { Button } from '../ui/button';
import { ProblemNote } from '../ui/problem-note';
import { ReleaseProposalCard } from './release-proposal-card';

const RUNNING_POLL_MS = 2_000;
const PUBLISHED_SHOWN_MS = 60_000;

interface Tracked {
  taskId: string;
  version: string;
  tag: string;
}

export function ReleaseProposalSlot() {
  const [tracked, setTracked] = useState<Tracked | null>(null);
  const idle = usePollInterval(30_000);
  const proposal = $api.useQuery('get', '/api/release/proposal', undefined, {
    // Fast while an approve runs (or was just started here), until the proposal is no longer open.
    refetchInterval: (query) => {
      const gone = query.state.status === 'error' && problemOf(query.state.error).code === 'not_found';
      return !gone && (tracked || query.state.data?.execute_in_flight) ? RUNNING_POLL_MS : idle;
    },
  });
  const forget = useCallback(() => setTracked(null), []);
  const none = proposal.error ? problemOf(proposal.error).code === 'not_found' : false;
  // After a failed refetch TanStack keeps the last data: only a successful read shows a card.
  const data = proposal.isSuccess ? proposal.data : undefined;

  // Follow any approve in flight (from this tab or another) to its end.
  useEffect(() => {
    if (data?.execute_in_flight) setTracked({ taskId: data.task_id, version: data.version, tag: data.tag });
  }, [data?.execute_in_flight, data?.task_id, data?.version, data?.tag]);

  if (proposal.error && !none)
    return <ProblemNote error={proposal.error} prefix="Could not load the release proposal" />;
  if (data)
    return (
      <ReleaseProposalCard
        proposal={data}
        onApproved={() => setTracked({ taskId: data.task_id, version: data.version, tag: data.tag })}
      />
    );
  if (none && tracked) return <Outcome tracked={tracked} onDone={forget} />;
  return null;
}

/** How a followed proposal ended, read from its task once the proposal is no longer open. */
function Outcome({ tracked, onDone }: { tracked: Tracked; onDone: () => void }) {
  const task = $api.useQuery('get', '/api/tasks/{id}', { params: { path: { id: tracked.taskId } } });
  const status = task.data?.status;
  useEffect(() => {
    if (status !== 'completed') return;
    const timer = setTimeout(onDone, PUBLISHED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [status, onDone]);
  if (task.error) return <ProblemNote error={task.error} prefix="Could not read how the release ended" />;
  if (!status) return null;
  if (status === 'completed')
    return (
      <div
        role="status"
        data-testid="release-published"
        className="flex items-center justify-between gap-3 rounded-lg border border-ok/30 bg-ok-bg px-4 py-3 text-ok"
      >
        <span className="flex items-center gap-2 font-medium">
          <CircleCheck size={16} aria-hidden />
          <span>
            Release <span className="font-mono">{tracked.version}</span> published ({tracked.tag}); the
            proposal is completed.
          </span>
        </span>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Dismiss
        </Button>
      </div>
    );
  return (
    <div
      role="status"
      className="flex items-center justify-between gap-3 rounded-lg border border-border px-4 py-3"
    >
      <span>
        Release <span className="font-mono">{tracked.version}</span> is no longer proposed (its task is{' '}
        {status.replaceAll('_', ' ')}).
      </span>
      <Button size="sm" variant="ghost" onClick={onDone}>
        Dismiss
      </Button>
    </div>
  );
}
