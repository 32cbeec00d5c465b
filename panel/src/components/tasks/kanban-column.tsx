/**
 * One kanban column: the state's badge and count, then its cards in a scroll box virtualised with
 * @tanstack/react-virtual (only the cards in view are in the DOM, so a full column stays smooth),
 * and, when the column holds more than it shows, a link to all of them in the list. An empty
 * column is a narrow strip with its count until clicked.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import type { paths } from '../../api/schema';
import { RelativeTime } from '../ui/time';
import type { Lookups } from './lookups';
import { StateBadge, stateLabel } from './state-badge';

type Board = paths['/api/kanban']['get']['responses'][200]['content']['application/json'];
export type Column = Board['columns'][number];
type Card = Column['cards'][number];

const CARD_HEIGHT = 88;
const GAP = 6;

export function KanbanColumn({
  column,
  lookups,
  highlighted,
  listHref,
}: {
  column: Column;
  lookups: Lookups;
  highlighted: ReadonlySet<string>;
  listHref: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: column.cards.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_HEIGHT + GAP,
    overscan: 6,
    getItemKey: (index) => column.cards[index]!.id,
    initialRect: { width: 256, height: 640 },
  });
  const headingId = `kanban-${column.status}`;
  const [expanded, setExpanded] = useState(false);

  // An empty column is a narrow strip with its count, so the columns with work stay on screen.
  if (column.count === 0 && !expanded) {
    return (
      <section
        aria-label={`${stateLabel(column.status)}: no tasks`}
        data-testid={`column-${column.status}`}
        data-count={0}
        data-collapsed="true"
        className="flex w-9 shrink-0 flex-col rounded-lg border border-border bg-surface-2"
      >
        <button
          type="button"
          aria-expanded={false}
          title={`Show the empty column “${stateLabel(column.status)}”`}
          onClick={() => setExpanded(true)}
          className="flex flex-1 flex-col items-center gap-2 rounded-lg px-1 py-2 text-xs text-muted hover:bg-surface hover:text-text"
        >
          <span className="font-semibold" data-testid="column-count">
            0
          </span>
          <span className="whitespace-nowrap [writing-mode:vertical-rl]">{stateLabel(column.status)}</span>
        </button>
      </section>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      data-testid={`column-${column.status}`}
      data-count={column.count}
      className="flex w-64 shrink-0 flex-col rounded-lg border border-border bg-surface-2"
    >
      <header className="flex items-center justify-between gap-2 border-b border-border px-2.5 py-2">
        <h2 id={headingId} className="min-w-0">
          <StateBadge status={column.status} />
        </h2>
        <span className="text-xs font-semibold text-muted" data-testid="column-count">
          {column.count.toLocaleString()}
        </span>
      </header>
      <div ref={scroller} className="h-[calc(100vh-264px)] min-h-64 overflow-y-auto p-1.5" tabIndex={-1}>
        {column.cards.length === 0 ? (
          <p className="px-1 py-3 text-center text-xs text-muted">No tasks</p>
        ) : (
          <ul className="relative" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const card = column.cards[item.index]!;
              return (
                <li
                  key={item.key}
                  className="absolute inset-x-0"
                  style={{ transform: `translateY(${item.start}px)`, height: CARD_HEIGHT }}
                >
                  <KanbanCard card={card} lookups={lookups} highlight={highlighted.has(card.id)} />
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {column.truncated && (
        <p className="border-t border-border px-2.5 py-1.5 text-xs text-muted">
          {column.cards.length.toLocaleString()} of {column.count.toLocaleString()} shown ·{' '}
          <Link to={listHref} className="text-accent underline">
            all in the list
          </Link>
        </p>
      )}
    </section>
  );
}

function KanbanCard({ card, lookups, highlight }: { card: Card; lookups: Lookups; highlight: boolean }) {
  return (
    <article
      data-testid={`card-${card.id}`}
      data-highlight={highlight || undefined}
      className={`flex h-full flex-col justify-between rounded-md border px-2.5 py-2 ${highlight ? 'border-accent bg-info-bg' : 'border-border bg-surface'}`}
    >
      <div className="flex items-center justify-between gap-2 text-xs text-muted">
        <span className="font-mono" title={card.id}>
          {card.id8}
        </span>
        <RelativeTime at={card.updated_at} />
      </div>
      <Link
        to={`/tasks/${card.id}`}
        title={card.title}
        className="line-clamp-2 text-[13px] leading-snug font-medium hover:underline"
      >
        {card.title}
      </Link>
      <div className="flex items-center justify-between gap-2 text-xs text-muted">
        <span className="truncate">{card.team.replace('_', ' ')}</span>
        <span className="truncate">{lookups.agent(card.assigned_to)}</span>
      </div>
    </article>
  );
}
