import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../src/platform/db/client.js';
import { createTestStores, type TestStores, testDatabaseUrl } from './support/stores.js';

const tables = async (stores: TestStores) => {
  const platform = await stores.platform();
  const rows = await queryRows<{ table_name: string }>(
    platform.database.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  await platform.close();
  return rows.map((r) => r.table_name);
};

describe(`storage on ${testDatabaseUrl ? 'PostgreSQL' : 'PGlite'}`, () => {
  let stores: TestStores;
  afterEach(async () => stores?.dispose());

  it('applies the migrations at open, and opening again is a no-op', async () => {
    stores = await createTestStores({ empty: true });
    const first = await tables(stores);
    expect(first).toEqual(expect.arrayContaining(['auth_sessions', 'leases', 'settings']));
    expect(await tables(stores)).toEqual(first);
  });

  it('keeps acknowledged data across a restart on the same data', async () => {
    stores = await createTestStores();
    const before = await stores.platform();
    await before.database.db.execute(
      sql`insert into settings (key, value) values ('restart-probe', '"kept"'::jsonb)`,
    );
    await before.close();

    const after = await stores.platform();
    const rows = await queryRows<{ value: string }>(
      after.database.db,
      sql`select value from settings where key = 'restart-probe'`,
    );
    expect(rows[0]?.value).toBe('kept');
  });
});

describe('embedded PGlite data directory', () => {
  let stores: TestStores;
  afterEach(async () => stores?.dispose());

  it('is refused while another live process holds it, and taken over once that process died', async () => {
    stores = await createTestStores();
    const lockDir = join(stores.dataDir, 'pglite');
    mkdirSync(lockDir, { recursive: true });
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(join(lockDir, 'gaffer.pid'), String(holder.pid));
    await expect(openDatabase({ dataDir: stores.dataDir })).rejects.toThrow(
      `in use by process ${holder.pid}`,
    );

    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const database = await openDatabase({ dataDir: stores.dataDir });
    await database.ping();
    await database.close();
  });
});
