/**
 * The red banner under the header, on every page, while any scope is paused: scope, mode, who set
 * it, reason, a countdown to expires_at that ticks every second, and Resume. When the countdown
 * reaches zero it refetches instead of assuming the pause is over. A state that cannot be read is
 * shown too (amber), never hidden.
 */
import { useQueryClient } from '@tanstack/react-query';
import { OctagonPause, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { $api, queryKey } from '../../api/client';
import { actorName, formatCountdown } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { Button } from '../ui/button';
import { ProblemNote } from '../ui/problem-note';
import { type PauseRow, scopeLabel, usePauses } from './use-pauses';

export function PauseBanner() {
  const pauses = usePauses();
  if (pauses.isError) {
    return (
      <div
        role="status"
        className="flex items-center gap-2 border-b border-warn/40 bg-warn-bg px-6 py-2 text-warn-text"
      >
        <TriangleAlert size={16} aria-hidden />
        Maintenance-pause state unavailable, so whether work is paused is unknown right now. It is retried
        automatically.
      </div>
    );
  }
  const paused = pauses.data?.scopes.filter((row) => row.paused) ?? [];
  if (paused.length === 0) return null;
  return (
    <div role="status" aria-label="Paused scopes">
      {paused.map((row) => (
        <PausedScope key={row.scope} row={row} />
      ))}
    </div>
  );
}

function PausedScope({ row }: { row: PauseRow }) {
  const queryClient = useQueryClient();
  const now = useNow(1000);
  const left = row.expires_at ? new Date(row.expires_at).getTime() - now : null;
  const expired = left !== null && left <= 0;
  const resume = $api.useMutation('delete', '/api/maintenance-pause/{scope}', {
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/maintenance-pause') }),
  });

  // At zero the server decides whether the pause is over (it is, unless it was extended).
  useEffect(() => {
    if (expired) void queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/maintenance-pause') });
  }, [expired, queryClient]);

  return (
    <div
      data-testid={`pause-banner-${row.scope}`}
      className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-danger/40 bg-danger-bg px-6 py-2 text-danger-text"
    >
      <OctagonPause size={16} aria-hidden className="shrink-0" />
      <span className="mr-1 font-semibold uppercase tracking-wide">Paused</span>
      <span>
        <span className="font-semibold">{scopeLabel(row.scope)}</span>{' '}
        <span className="font-mono text-xs">({row.scope})</span> · {row.mode === 'kill' ? 'kill' : 'drain'}{' '}
        mode
      </span>
      <span>· by {actorName(row.paused_by)}</span>
      {row.reason && <span className="min-w-0 break-words">· “{row.reason}”</span>}
      {left !== null && (
        <span>
          · resumes in{' '}
          <span aria-live="off" data-testid="pause-countdown" className="font-mono tabular-nums">
            {formatCountdown(left)}
          </span>
        </span>
      )}
      <span className="ml-auto flex items-center gap-2">
        {resume.error ? <ProblemNote error={resume.error} prefix="Resume failed" /> : null}
        <Button
          size="sm"
          variant="secondary"
          disabled={resume.isPending}
          onClick={() => resume.mutate({ params: { path: { scope: row.scope } } })}
        >
          Resume {scopeLabel(row.scope).toLowerCase()}
        </Button>
      </span>
    </div>
  );
}
