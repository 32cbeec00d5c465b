/**
 * The SQL of the settings table, and nothing else. Values are read back as JSON text and parsed
 * here, because the driver's own jsonb parsing would turn a stored string such as "123" or "true"
 * into a number or a boolean.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { settings } from './schema.js';

export interface StoredSetting {
  readonly key: string;
  readonly value: unknown;
  readonly updatedBy: string | null;
  readonly updatedAt: Date;
}

const columns = {
  key: settings.key,
  valueJson: sql<string>`${settings.value}::text`,
  updatedBy: settings.updatedBy,
  updatedAt: settings.updatedAt,
};

type Row = { key: string; valueJson: string; updatedBy: string | null; updatedAt: Date | string };

const toStored = (row: Row): StoredSetting => ({
  key: row.key,
  value: JSON.parse(row.valueJson),
  updatedBy: row.updatedBy,
  updatedAt: new Date(row.updatedAt),
});

export async function readStoredSettings(db: Db): Promise<StoredSetting[]> {
  const rows = await db.select(columns).from(settings).orderBy(settings.key);
  return rows.map(toStored);
}

export async function readStoredSetting(db: Db, key: string): Promise<StoredSetting | undefined> {
  const [row] = await db.select(columns).from(settings).where(eq(settings.key, key));
  return row ? toStored(row) : undefined;
}

/**
 * Inserts or replaces the value under `setting.key` in one statement. The value goes in as JSON
 * text, so a JSON `null` is stored as such rather than as SQL NULL.
 */
export async function upsertSetting(db: Db, setting: StoredSetting): Promise<void> {
  const value = sql`${JSON.stringify(setting.value)}::jsonb`;
  await db
    .insert(settings)
    .values({ key: setting.key, value, updatedBy: setting.updatedBy, updatedAt: setting.updatedAt })
    .onConflictDoUpdate({
      target: settings.key,
      set: {
        value: sql`excluded.value`,
        updatedBy: sql`excluded.updated_by`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}
