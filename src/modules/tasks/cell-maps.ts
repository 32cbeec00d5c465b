/**
 * The per-cell project maps (team → project id) of coordination tasks, kept once read: a map is
 * written in the same transaction as its task and never changes, so a map read from committed data
 * is final (an empty one too). Only tasks that may have one (no project, no product) are looked
 * up; a bounded number of maps is kept, the oldest forgotten first.
 */
import type { Db } from '../../platform/db/client.js';
import { loadCellProjects, mayHaveCellMap } from './task-store.js';
import type { TaskRow } from './types.js';

const NONE: Readonly<Record<string, string>> = Object.freeze({});

export class CellMaps {
  private readonly known = new Map<string, Record<string, string>>();

  constructor(private readonly capacity = 10_000) {}

  /** The maps of the given rows, by task id: one query for the ones not known yet, none otherwise. */
  async of(
    db: Db,
    rows: readonly Pick<TaskRow, 'id' | 'projectId' | 'productId'>[],
  ): Promise<Map<string, Record<string, string>>> {
    const maps = new Map<string, Record<string, string>>();
    const missing: string[] = [];
    for (const row of rows) {
      const known = mayHaveCellMap(row) ? this.known.get(row.id) : NONE;
      if (known) maps.set(row.id, known);
      else missing.push(row.id);
    }
    if (missing.length > 0) {
      const loaded = await loadCellProjects(db, missing);
      for (const id of missing) {
        const map = loaded.get(id) ?? NONE;
        maps.set(id, map);
        this.remember(id, map);
      }
    }
    return maps;
  }

  private remember(id: string, map: Record<string, string>): void {
    if (this.known.size >= this.capacity) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    this.known.set(id, map);
  }
}
