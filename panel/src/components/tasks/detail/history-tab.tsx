/** History: the task's audit trail (who, in which role, what, from → to, why, when), newest first. */
import { $api } from '../../../api/client';
import { EmptyState, Loading } from '../../ui/page';
import { ProblemNote } from '../../ui/problem-note';
import { TableScroll } from '../../ui/table-scroll';
import { RelativeTime } from '../../ui/time';
import type { Lookups } from '../lookups';
import { StateBadge } from '../state-badge';

export function HistoryTab({ taskId, lookups }: { taskId: string; lookups: Lookups }) {
  // Live: TASK_CHANGED refetches it (invalidation.ts).
  const events = $api.useQuery('get', '/api/tasks/{id}/events', { params: { path: { id: taskId } } });
  if (events.error) return <ProblemNote error={events.error} prefix="Could not load the history" />;
  if (!events.data) return <Loading what="the history" />;
  const rows = [...events.data.events].reverse();
  if (rows.length === 0) return <EmptyState>No recorded changes yet.</EmptyState>;
  return (
    <TableScroll label="History">
      <table className="w-full text-left text-[13px]" data-testid="history">
        <thead className="border-b border-border text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              When
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Who
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Action
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              State
            </th>
            <th scope="col" className="w-full px-3 py-2 font-medium">
              Why
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((e) => (
            <tr key={e.id} className="align-top">
              <td className="px-3 py-1.5 whitespace-nowrap text-muted">
                <RelativeTime at={e.created_at} />
              </td>
              <td className="px-3 py-1.5 whitespace-nowrap">
                {lookups.agent(e.actor_id)} <span className="text-muted">({e.actor_role})</span>
              </td>
              <td className="px-3 py-1.5 whitespace-nowrap">{e.action.replaceAll('_', ' ')}</td>
              <td className="px-3 py-1.5 whitespace-nowrap">
                {e.from_status && e.to_status && e.from_status !== e.to_status ? (
                  <span className="inline-flex items-center gap-1">
                    <StateBadge status={e.from_status} /> → <StateBadge status={e.to_status} />
                  </span>
                ) : e.to_status ? (
                  <StateBadge status={e.to_status} />
                ) : null}
              </td>
              <td className="px-3 py-1.5 break-words">{e.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
