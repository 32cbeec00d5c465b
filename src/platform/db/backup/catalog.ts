/**
 * What a backup needs to know of the schema, read from the database itself (the same on PGlite and
 * PostgreSQL): the tables of `public` in an order where every table comes after those its foreign
 * keys name, each table's stored columns (generated ones are recomputed, not copied), the columns a
 * table's own foreign keys point back into it with (its rows are ordered parents first), and the
 * sequences to move past the restored rows.
 */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.js';

export interface TableInfo {
  name: string;
  /** Stored columns, in table order. */
  columns: string[];
  /** Foreign keys of the table into itself: the column and the column it names. */
  selfReferences: { column: string; references: string }[];
  /** Columns filled from a sequence (serial or identity). */
  sequenced: string[];
}

export async function readCatalog(db: Db): Promise<TableInfo[]> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
  );
  const columns = await queryRows<{ table_name: string; column_name: string; sequenced: boolean }>(
    db,
    sql`select table_name, column_name,
          (is_identity = 'YES' or coalesce(column_default, '') like 'nextval(%') as sequenced
        from information_schema.columns
        where table_schema = 'public' and is_generated = 'NEVER'
        order by table_name, ordinal_position`,
  );
  const keys = await queryRows<{ child: string; parent: string; column: string; references: string }>(
    db,
    sql`select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent,
          a.attname as column, af.attname as references
        from pg_constraint c
        join pg_namespace n on n.oid = c.connamespace
        join lateral unnest(c.conkey, c.confkey) as k(own, other) on true
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.own
        join pg_attribute af on af.attrelid = c.confrelid and af.attnum = k.other
        where c.contype = 'f' and n.nspname = 'public'`,
  );
  const strip = (name: string) => name.replace(/^public\./, '').replace(/^"|"$/g, '');
  const infos = new Map<string, TableInfo>(
    tables.map(({ name }) => [name, { name, columns: [], selfReferences: [], sequenced: [] }]),
  );
  for (const column of columns) {
    const info = infos.get(column.table_name);
    if (!info) continue;
    info.columns.push(column.column_name);
    if (column.sequenced) info.sequenced.push(column.column_name);
  }
  const parents = new Map<string, Set<string>>([...infos.keys()].map((name) => [name, new Set()]));
  for (const key of keys) {
    const [child, parent] = [strip(key.child), strip(key.parent)];
    if (child === parent) {
      infos.get(child)?.selfReferences.push({ column: key.column, references: key.references });
    } else parents.get(child)?.add(parent);
  }
  return dependencyOrder(parents).map((name) => infos.get(name)!);
}

/** Tables so that each comes after the tables it references; a cycle between tables is refused. */
export function dependencyOrder(parents: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      throw new Error(`the tables reference each other in a cycle: ${[...path, name].join(' → ')}`);
    }
    state.set(name, 'visiting');
    for (const parent of [...(parents.get(name) ?? [])].sort())
      if (parents.has(parent)) visit(parent, [...path, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of [...parents.keys()].sort()) visit(name, []);
  return order;
}

/**
 * Rows of a self-referencing table, parents before the rows that name them (rows whose parent is
 * not among them keep their place).
 */
export function parentsFirst(
  rows: readonly Record<string, unknown>[],
  selfReferences: TableInfo['selfReferences'],
): Record<string, unknown>[] {
  if (selfReferences.length === 0) return [...rows];
  const byKey = new Map<string, number>();
  for (const { references } of selfReferences)
    for (const [i, row] of rows.entries()) byKey.set(`${references}=${JSON.stringify(row[references])}`, i);
  const placed = new Set<number>();
  const out: Record<string, unknown>[] = [];
  const place = (i: number, depth: number) => {
    if (placed.has(i) || depth > rows.length) return;
    placed.add(i);
    for (const { column, references } of selfReferences) {
      const value = rows[i]![column];
      if (value === null || value === undefined) continue;
      const parent = byKey.get(`${references}=${JSON.stringify(value)}`);
      if (parent !== undefined && parent !== i) place(parent, depth + 1);
    }
    out.push(rows[i]!);
  };
  for (let i = 0; i < rows.length; i++) place(i, 0);
  return out;
}
