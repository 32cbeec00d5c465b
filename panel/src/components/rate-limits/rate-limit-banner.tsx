/**
 * The amber banner under the header, on every page, while any model provider is parked on a rate
 * limit or overload: provider, kind, how many agents wait (named on hover), and a countdown to
 * when it is tried again. When the countdown runs out it says so and refetches rather than assuming
 * the provider recovered. A state that cannot be read is shown too, never hidden.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Gauge, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { queryKey } from '../../api/client';
import { formatCountdown } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { type RateLimitEntry, useRateLimits } from './use-rate-limits';

export function RateLimitBanner() {
  const limits = useRateLimits();
  if (limits.isError) {
    return (
      <div
        role="alert"
        className="flex items-center gap-2 border-b border-warn/40 bg-warn-bg px-6 py-2 text-warn-text"
      >
        <TriangleAlert size={16} aria-hidden />
        Rate-limit state unavailable, so whether a model provider is parked is unknown right now. It is
        retried automatically.
      </div>
    );
  }
  const entries = limits.data?.entries ?? [];
  if (entries.length === 0) return null;
  return (
    <div role="alert" aria-label="Rate-limited providers">
      {entries.map((entry) => (
        <ParkedProvider key={entry.provider} entry={entry} />
      ))}
    </div>
  );
}

const waitingText = (count: number) =>
  count === 0 ? 'no agent waiting' : count === 1 ? '1 agent waiting' : `${count} agents waiting`;

function ParkedProvider({ entry }: { entry: RateLimitEntry }) {
  const queryClient = useQueryClient();
  const now = useNow(1000);
  const left = new Date(entry.resume_at).getTime() - now;
  const due = left <= 0;

  // At zero the server decides: the probe lifts the provider, or backs off and moves resume_at.
  useEffect(() => {
    if (due) void queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/system/rate-limits') });
  }, [due, queryClient]);

  return (
    <div
      data-testid={`rate-limit-banner-${entry.provider}`}
      className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-warn/40 bg-warn-bg px-6 py-2 text-warn-text"
    >
      <Gauge size={16} aria-hidden className="shrink-0" />
      <span className="mr-1 font-semibold uppercase tracking-wide">
        {entry.kind === 'overloaded' ? 'Overloaded' : 'Rate limited'}
      </span>
      <span className="font-semibold">{entry.provider}</span>
      <span title={entry.affected_agents.join(', ') || undefined}>
        · {waitingText(entry.affected_agents.length)}
      </span>
      {due ? (
        <span>· trying it again now</span>
      ) : (
        <span>
          · resumes in{' '}
          <span aria-live="off" data-testid="rate-limit-countdown" className="font-mono tabular-nums">
            {formatCountdown(left)}
          </span>
        </span>
      )}
      {entry.probe_failures > 0 && (
        <span>
          · {entry.probe_failures} failed {entry.probe_failures === 1 ? 'retry' : 'retries'}
        </span>
      )}
    </div>
  );
}
