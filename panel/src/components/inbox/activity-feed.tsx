/**
 * The inbox's live activity feed: recent task moves, engine originations and maintenance pauses.
 * Seeded from `GET /api/tasks/activity` and the current pauses; while the inbox is open every
 * TASK_CHANGED frame refetches the activity (live/invalidation.ts) and every
 * MAINTENANCE_PAUSE_CHANGED frame adds a pause or resume line.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { $api } from '../../api/client';
import { useLiveEvent, usePollInterval } from '../../live/live';
import { usePauses } from '../maintenance/use-pauses';
import { EmptyState, Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { ShortId } from '../ui/short-id';
import { RelativeTime } from '../ui/time';
import { feed, type PauseEvent } from './activity-lines';

const SHOWN = 15;

export function ActivityFeed() {
  const activity = $api.useQuery(
    'get',
    '/api/tasks/activity',
    { params: { query: { limit: SHOWN } } },
    { refetchInterval: usePollInterval(30_000) },
  );
  const pauses = usePauses();
  const roster = $api.useQuery('get', '/api/agents');
  const slugs = new Map((roster.data?.agents ?? []).map((a) => [a.id, a.slug]));
  const [seen, setSeen] = useState<PauseEvent[]>([]);
  useLiveEvent('MAINTENANCE_PAUSE_CHANGED', (frame) => {
    const paused = frame.paused === true;
    const at = paused && typeof frame.paused_at === 'string' ? frame.paused_at : new Date().toISOString();
    setSeen((list) => [
      ...list,
      {
        scope: String(frame.scope),
        paused,
        mode: typeof frame.mode === 'string' ? frame.mode : null,
        reason: typeof frame.reason === 'string' ? frame.reason : null,
        at,
      },
    ]);
  });
  const current: PauseEvent[] = (pauses.data?.scopes ?? [])
    .filter((s) => s.paused && s.paused_at)
    .map((s) => ({
      scope: s.scope,
      paused: true,
      mode: s.mode,
      reason: s.reason,
      at: s.paused_at as string,
    }));
  const lines = feed(activity.data?.events ?? [], [...current, ...seen], SHOWN, (id) => slugs.get(id));

  return (
    <Section title="Activity" description="Task moves, engine originations and pauses, live.">
      {activity.error && <ProblemNote error={activity.error} prefix="Could not load the activity" />}
      {activity.isSuccess && lines.length === 0 && (
        <EmptyState>
          No activity yet. Task moves, engine originations and pauses show here as they happen.
        </EmptyState>
      )}
      <ol className="divide-y divide-border" data-testid="activity-feed">
        {lines.map((line) => (
          <li key={line.key} className="flex items-baseline gap-2 py-1.5">
            <span className="w-20 shrink-0 text-xs text-muted">
              <RelativeTime at={line.at} />
            </span>
            <span
              className={`shrink-0 font-mono text-xs ${line.kind === 'pause' ? 'text-danger-text' : line.kind === 'origination' ? 'text-info' : ''}`}
            >
              {line.who}
            </span>
            <span className="min-w-0 flex-1 break-words">{line.text}</span>
            {line.taskId && (
              <Link to={`/tasks/${line.taskId}`} className="shrink-0 text-accent underline">
                <ShortId id={line.taskId} />
              </Link>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}
