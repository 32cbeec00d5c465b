/**
 * The kanban board: tasks grouped by state, filtered by project and team. Two queries whatever
 * the board's size (`boardStatements`): the counts by one GROUP BY, and the cards of every column
 * at once, each column cut at its cap inside the database. A read model over the tasks table.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Platform } from '../../platform/context.js';
import { type Db, queryRows } from '../../platform/db/client.js';
import { isTerminal } from '../lifecycle/index.js';
import { textMatch } from '../tasks/index.js';
import { tasks } from '../tasks/schema.js';
import {
  assembleBoard,
  type BoardOptions,
  type Column,
  columnCap,
  compareCards,
  DEFAULT_COLUMN_LIMIT,
  KANBAN_STATES,
  TERMINAL_STATES,
} from './board.js';

export interface KanbanCard {
  id: string;
  title: string;
  status: string;
  priority: number;
  team: string;
  projectId: string | null;
  assignedTo: string | null;
  parentTaskId: string | null;
  source: string;
  updatedAt: Date;
}

export interface KanbanQuery extends Partial<BoardOptions> {
  projectId?: string;
  team?: string;
  /** Text search: the title contains it or the id starts with it. */
  text?: string;
}

export interface KanbanBoard {
  columns: Column<KanbanCard>[];
  total: number;
}

export class KanbanService {
  constructor(readonly platform: Platform) {}

  private get db(): Db {
    return this.platform.database.db;
  }

  async board(query: KanbanQuery = {}): Promise<KanbanBoard> {
    const statements = boardStatements(this.db, query);
    // Independent reads: on a PostgreSQL pool they run side by side.
    const [counts, rows] = await Promise.all([statements.counts(), statements.cards()]);
    return assembleBoard(counts, rows.map(toCard).sort(compareCards));
  }
}

/**
 * The statements a board request runs, and nothing else (the benchmark runs them alone beside the
 * route): the counts by one GROUP BY, and every column's cards in one statement — per state, a
 * lateral top-N over that state's rows (the status indexes find them; no sort of the whole table),
 * active and terminal states each with their own cap and order.
 */
export function boardStatements(db: Db, query: KanbanQuery = {}) {
  const options: BoardOptions = {
    limit: query.limit ?? DEFAULT_COLUMN_LIMIT,
    includeTerminal: query.includeTerminal ?? false,
  };
  const filters: SQL[] = [];
  if (query.projectId) filters.push(eq(tasks.projectId, query.projectId));
  if (query.team) filters.push(eq(tasks.team, query.team));
  if (query.text) filters.push(textMatch(query.text));
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
  const active = KANBAN_STATES.filter((state) => !isTerminal(state));
  const cards = sql`${column(active, sql`${tasks.priority}, ${tasks.updatedAt} desc, ${tasks.id}`, options.limit)}
      union all
      ${column(TERMINAL_STATES, sql`${tasks.updatedAt} desc, ${tasks.id}`, columnCap('completed', options))}`;
  return { counts: () => counts.execute(), cards: () => queryRows<CardRow>(db, cards) };
}

interface CardRow {
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

const toCard = (row: CardRow): KanbanCard => ({
  id: row.id,
  title: row.title,
  status: row.status,
  priority: row.priority,
  team: row.team,
  projectId: row.project_id,
  assignedTo: row.assigned_to,
  parentTaskId: row.parent_task_id,
  source: row.source,
  updatedAt: new Date(row.updated_at),
});
