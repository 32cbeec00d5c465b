/**
 * The shape of the kanban board, pure: the fifteen task states as columns in pipeline order, the
 * per-column card caps, and the assembly of counted, capped columns from query rows.
 *
 * Active columns list cards by (priority, most recently updated). The terminal columns
 * (completed, cancelled) list the most recently updated cards first; unless `include_terminal` is
 * asked for they show only the 20 most recent. Every column reports its true count and whether it
 * holds more cards than it shows.
 */
import { isTerminal, TASK_STATUSES, type TaskStatus, TERMINAL_STATES } from '../lifecycle/index.js';

/** Every task state, in pipeline order (the lifecycle's order): each is a column even when empty. */
export const KANBAN_STATES = TASK_STATUSES;
export type KanbanState = TaskStatus;
export { TERMINAL_STATES };

export const DEFAULT_COLUMN_LIMIT = 100;
export const MAX_COLUMN_LIMIT = 500;
/** Cards a terminal column shows when terminal tasks are not asked for. */
export const RECENT_TERMINAL_CARDS = 20;

export interface BoardOptions {
  /** Cards per column at most (1–500). */
  limit: number;
  /** Show completed and cancelled cards up to `limit` instead of only the most recent 20. */
  includeTerminal: boolean;
}

/** How many cards the column shows at most. */
export function columnCap(status: string, options: BoardOptions): number {
  return isTerminal(status) && !options.includeTerminal
    ? Math.min(options.limit, RECENT_TERMINAL_CARDS)
    : options.limit;
}

/**
 * The order of cards within one column: active states by priority (0 first), then most recently
 * updated; terminal states most recently updated first. The id breaks ties.
 */
export function compareCards(
  a: { status: string; priority: number; updatedAt: Date; id: string },
  b: { status: string; priority: number; updatedAt: Date; id: string },
): number {
  if (a.status !== b.status) return 0;
  const byPriority = isTerminal(a.status) ? 0 : a.priority - b.priority;
  return (
    byPriority || b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

export interface Column<C> {
  status: KanbanState;
  count: number;
  truncated: boolean;
  cards: C[];
}

/**
 * All fifteen columns in pipeline order from per-state counts and the (already ordered, already
 * capped) cards. Rows of a state the board does not know are left out.
 */
export function assembleBoard<C extends { status: string }>(
  counts: ReadonlyArray<{ status: string; count: number }>,
  cards: readonly C[],
): { columns: Column<C>[]; total: number } {
  const countOf = new Map(counts.map((row) => [row.status, row.count]));
  const cardsOf = new Map<string, C[]>();
  for (const card of cards) {
    const list = cardsOf.get(card.status);
    if (list) list.push(card);
    else cardsOf.set(card.status, [card]);
  }
  const columns = KANBAN_STATES.map((status) => {
    const columnCards = cardsOf.get(status) ?? [];
    const count = Math.max(countOf.get(status) ?? 0, columnCards.length);
    return { status, count, truncated: count > columnCards.length, cards: columnCards };
  });
  return { columns, total: columns.reduce((sum, column) => sum + column.count, 0) };
}
