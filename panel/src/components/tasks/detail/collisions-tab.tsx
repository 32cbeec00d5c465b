/**
 * Collisions: the task's declared surface (path globs, migration, shared code) and the same-parent
 * siblings it collides with (GET /api/tasks/{id}/collision-map), with the overlapping globs.
 */
import { Link } from 'react-router';
import { $api } from '../../../api/client';
import { EmptyState, Loading } from '../../ui/page';
import { ProblemNote } from '../../ui/problem-note';
import { TableScroll } from '../../ui/table-scroll';
import { StateBadge } from '../state-badge';

export function CollisionsTab({ taskId }: { taskId: string }) {
  const map = $api.useQuery('get', '/api/tasks/{id}/collision-map', { params: { path: { id: taskId } } });
  if (map.error) return <ProblemNote error={map.error} prefix="Could not load the collision map" />;
  if (!map.data) return <Loading what="the collision map" />;
  const m = map.data;
  return (
    <div className="space-y-4" data-testid="collisions">
      <section aria-labelledby="c-surface">
        <h2 id="c-surface" className="mb-1 text-[15px] font-semibold">
          Declared surface
        </h2>
        {m.intends_to_touch.length === 0 ? (
          <p className="text-muted">No paths declared.</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5">
            {m.intends_to_touch.map((g) => (
              <li
                key={g}
                className="rounded border border-border bg-surface-2 px-1.5 py-0.5 font-mono text-xs"
              >
                {g}
              </li>
            ))}
          </ul>
        )}
        <p className="mt-1 text-muted">
          {m.adds_migration ? 'Adds a migration' : 'No migration'} ·{' '}
          {m.touches_shared ? 'touches shared code' : 'no shared code'}
        </p>
      </section>
      <section aria-labelledby="c-siblings">
        <h2 id="c-siblings" className="mb-1 text-[15px] font-semibold">
          Colliding siblings
        </h2>
        {m.parent_task_id === null ? (
          <EmptyState>A root task has no siblings to collide with.</EmptyState>
        ) : m.siblings.length === 0 ? (
          <EmptyState>No sibling declares an overlapping path or a second migration.</EmptyState>
        ) : (
          <TableScroll label="Overlapping siblings">
            <table className="w-full text-left text-[13px]">
              <thead className="border-b border-border text-xs text-muted">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    State
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Sibling
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Overlap
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Branch
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {m.siblings.map((s) => (
                  <tr key={s.id} className="align-top">
                    <td className="px-3 py-1.5">
                      <StateBadge status={s.status} />
                    </td>
                    <td className="px-3 py-1.5">
                      <Link to={`/tasks/${s.id}`} className="hover:underline">
                        <span className="font-mono text-xs" title={s.id}>
                          {s.id8}
                        </span>{' '}
                        {s.title}
                      </Link>
                    </td>
                    <td className="px-3 py-1.5 font-mono text-xs">
                      {s.overlap.length
                        ? s.overlap.join(', ')
                        : s.adds_migration
                          ? 'both add a migration'
                          : ''}
                    </td>
                    <td className="px-3 py-1.5 font-mono text-xs">{s.branch_name ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {m.truncated && <p className="px-3 py-1.5 text-muted">More siblings collide than are listed.</p>}
          </TableScroll>
        )}
      </section>
    </div>
  );
}
