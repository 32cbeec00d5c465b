/** Key figures of the company at a glance, from the kanban counts (true totals per state). */
import type { paths } from '../../api/schema';

type Board = paths['/api/kanban']['get']['responses'][200]['content']['application/json'];

const ACTIVE = ['claimed', 'in_progress', 'verifying', 'needs_revision'];
const REVIEW = ['awaiting_qa', 'awaiting_documentation', 'awaiting_pr_review', 'awaiting_pm_review'];

export function keyFigures(board: Board) {
  const count = (states: string[]) =>
    board.columns.filter((c) => states.includes(c.status)).reduce((sum, c) => sum + c.count, 0);
  return [
    { label: 'Open tasks', value: board.total - count(['completed', 'cancelled']) },
    { label: 'Being worked', value: count(ACTIVE) },
    { label: 'In review', value: count(REVIEW) },
    { label: 'Blocked', value: count(['blocked']) },
    { label: 'Completed', value: count(['completed']) },
  ];
}

export function KeyFigures({ board }: { board: Board }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="Key figures">
      {keyFigures(board).map(({ label, value }) => (
        <div key={label} className="rounded-lg border border-border bg-surface px-4 py-3">
          <dt className="text-xs text-muted">{label}</dt>
          <dd className="text-[22px] font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
