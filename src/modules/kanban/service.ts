/**
 * The kanban board: tasks grouped by state, filtered by project and team. Two queries whatever
 * the board's size (`boardStatements`): the counts by one GROUP BY, and the cards of every column
 * at once, each column cut at its cap inside the database. A read model over the tasks module's
 * board reads (tasks/board-reads.ts).
 */
import type { Platform } from '../../platform/context.js';
import type { Db } from '../../platform/db/client.js';
import { type BoardCardRow, boardReads } from '../tasks/index.js';
import {
  assembleBoard,
  type BoardOptions,
  type Column,
  columnCap,
  compareCards,
  DEFAULT_COLUMN_LIMIT,
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
 * route): the tasks module's board reads for this query's filter and column caps.
 */
export function boardStatements(db: Db, query: KanbanQuery = {}) {
  const options: BoardOptions = {
    limit: query.limit ?? DEFAULT_COLUMN_LIMIT,
    includeTerminal: query.includeTerminal ?? false,
  };
  const { projectId, team, text } = query;
  return boardReads(
    db,
    { projectId, team, text },
    { active: options.limit, terminal: columnCap('completed', options) },
  );
}

const toCard = (row: BoardCardRow): KanbanCard => ({
  id: row.id,
  title: row.title,
  status: row.status,
  priority: row.priority,
  team: row.team,
  projectId: row.project_id,
  assignedTo: row.assigned_to,
  parentTaskId: row.parent_task_id,
  source: row.source,
  // The drivers answer a Date already (a copy of it would be a thousand allocations a request).
  updatedAt: row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at),
});
