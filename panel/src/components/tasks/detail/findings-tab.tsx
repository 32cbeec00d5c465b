/**
 * Findings: the review ledger of the task — counts per origin (open, addressed, verified, waived),
 * then the findings by round, newest round first, as GET /api/tasks/{id}/findings orders them.
 */
import { $api } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { EmptyState, Loading } from '../../ui/page';
import { ProblemNote } from '../../ui/problem-note';
import { TableScroll } from '../../ui/table-scroll';
import { RelativeTime } from '../../ui/time';

/** One finding as GET /api/tasks/{id}/findings answers it. */
export type Finding =
  paths['/api/tasks/{id}/findings']['get']['responses'][200]['content']['application/json']['findings'][number];

const STATUS_LOOK: Record<string, string> = {
  open: 'bg-warn-bg text-warn-text border-warn/30',
  addressed: 'bg-info-bg text-info border-info/30',
  verified: 'bg-ok-bg text-ok border-ok/30',
  waived: 'bg-surface-2 text-muted border-border',
};

export function FindingsTab({ taskId }: { taskId: string }) {
  const ledger = $api.useQuery('get', '/api/tasks/{id}/findings', { params: { path: { id: taskId } } });
  if (ledger.error) return <ProblemNote error={ledger.error} prefix="Could not load the findings" />;
  if (!ledger.data) return <Loading what="the findings" />;
  const { findings, summary, total, truncated } = ledger.data;
  if (total === 0)
    return <EmptyState>No findings. QA, the PR gate, a PM or you raise them when a review fails.</EmptyState>;
  const rounds = new Map<number, Finding[]>();
  for (const f of findings) rounds.set(f.round, [...(rounds.get(f.round) ?? []), f]);

  return (
    <div className="space-y-4" data-testid="findings">
      <TableScroll label="Findings" bare>
        <table
          className="rounded-lg border border-border bg-surface text-left text-[13px]"
          aria-label="Findings per origin"
        >
          <thead className="border-b border-border text-xs text-muted">
            <tr>
              {['Origin', 'Open', 'Addressed', 'Verified', 'Waived'].map((h) => (
                <th key={h} scope="col" className="px-3 py-1.5 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {summary.map((s) => (
              <tr key={s.origin}>
                <th scope="row" className="px-3 py-1.5 text-left font-medium">
                  {s.origin.replace('_', ' ')}
                </th>
                <td className="px-3 py-1.5 tabular-nums">{s.open}</td>
                <td className="px-3 py-1.5 tabular-nums">{s.addressed}</td>
                <td className="px-3 py-1.5 tabular-nums">{s.verified}</td>
                <td className="px-3 py-1.5 tabular-nums">{s.waived}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {truncated && (
        <p className="text-muted">
          Showing {findings.length} of {total} findings (the newest).
        </p>
      )}
      {[...rounds.entries()].map(([round, items]) => (
        <section key={round} aria-label={`Round ${round}`} className="space-y-2">
          <h2 className="text-[15px] font-semibold">Round {round}</h2>
          <ul className="space-y-2">
            {items.map((f) => (
              <li key={f.id} className="rounded-lg border border-border bg-surface p-3">
                <p className="flex flex-wrap items-center gap-2 text-xs text-muted">
                  <span className="font-mono" title={f.id}>
                    F-{f.id8}
                  </span>
                  <span
                    className={`rounded border px-1.5 py-0.5 font-medium ${STATUS_LOOK[f.status] ?? STATUS_LOOK.waived}`}
                  >
                    {f.status}
                  </span>
                  <span>{f.origin.replace('_', ' ')}</span>
                  <span>· {f.severity}</span>
                  <span>· by {f.author_slug}</span>
                  {f.file && (
                    <span className="font-mono">
                      · {f.file}
                      {f.line ? `:${f.line}` : ''}
                    </span>
                  )}
                  <span>
                    · <RelativeTime at={f.created_at} />
                  </span>
                </p>
                <dl className="mt-1.5 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
                  <dt className="text-muted">Expected</dt>
                  <dd className="break-words">{f.expected}</dd>
                  <dt className="text-muted">Actual</dt>
                  <dd className="break-words">{f.actual}</dd>
                  <dt className="text-muted">Fix</dt>
                  <dd className="break-words">{f.fix}</dd>
                  {f.resolution_note && (
                    <>
                      <dt className="text-muted">Note</dt>
                      <dd className="break-words">{f.resolution_note}</dd>
                    </>
                  )}
                </dl>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
