/**
 * The kanban board's reads of the tasks table (the kanban module shapes them into columns): the
 * counts by one GROUP BY, and every column's cards in one statement — per state, a lateral top-N
 * over that state's rows (the status indexes find them; no sort of the whole table), active and
 * terminal states each with their own cap and order. Two statements whatever the board's size.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../platform/db/client.js';
import { isTerminal, TASK_STATUSES, TERMINAL_STATES } from '../lifecycle/index.js';
import { textMatch } from './queries.js';
import { tasks } from './schema.js';

/** Which tasks the board shows. */
export interface BoardFilter {
  projectId?: string | undefined;
  team?: string | undefined;
  /** Text search: the title contains it or the id starts with it. */
  text?: string | undefined;
}

/** Cards per column at most: in an active state, and in a terminal one. */
export interface BoardCaps {
  active: number;
  terminal: number;
}

/** A card as the statement answers it. */
export interface BoardCardRow {
  id: string;
  title: string;
  status: string;
  priority: number;
  team: string;
  project_id: string | null;
  assigned_to: string | null;
  parent_task_id: string | null;
  source: string;
  updated_at: Date | string;
}

/**
 * The board's two statements over the tasks matching `filter`, ready to run (side by side): the
 * counts per status, and each state's cards, capped — active states by (priority, most recently
 * updated), terminal states most recently updated first, the id breaking ties.
 */
export function boardReads(db: Db, filter: BoardFilter, caps: BoardCaps) {
  const filters: SQL[] = [];
  if (filter.projectId) filters.push(eq(tasks.projectId, filter.projectId));
  if (filter.team) filters.push(eq(tasks.team, filter.team));
  if (filter.text) filters.push(textMatch(filter.text));
  const where = filters.length > 0 ? and(...filters) : undefined;

  const counts = db
    .select({ status: tasks.status, count: sql<number>`count(*)::int` })
    .from(tasks)
    .where(where)
    .groupBy(tasks.status);
  const column = (states: readonly string[], order: SQL, cap: number) => sql`
    select c.* from unnest(array[${sql.join(
      states.map((state) => sql`${state}`),
      sql`, `,
    )}]::text[]) as s(status)
    cross join lateral (
      select ${tasks.id} as id, ${tasks.title} as title, ${tasks.status} as status,
             ${tasks.priority} as priority, ${tasks.team} as team, ${tasks.projectId} as project_id,
             ${tasks.assignedTo} as assigned_to, ${tasks.parentTaskId} as parent_task_id,
             ${tasks.source} as source, ${tasks.updatedAt} as updated_at
      from ${tasks}
      where ${tasks.status} = s.status ${where ? sql`and ${where}` : sql``}
      order by ${order}
      limit ${cap}
    ) as c`;
  const active = TASK_STATUSES.filter((state) => !isTerminal(state));
  const cards = sql`${column(active, sql`${tasks.priority}, ${tasks.updatedAt} desc, ${tasks.id}`, caps.active)}
      union all
      ${column(TERMINAL_STATES, sql`${tasks.updatedAt} desc, ${tasks.id}`, caps.terminal)}`;
  return { counts: () => counts.execute(), cards: () => queryRows<BoardCardRow>(db, cards) };
}
