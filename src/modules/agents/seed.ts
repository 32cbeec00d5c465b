/** Seeds the default company on first start; existing rows (possibly edited by the CEO) are left alone. */
import type { Db } from '../../platform/db/client.js';
import { DEFAULT_COMPANY } from './roster.js';
import { agents } from './schema.js';

export async function seedDefaultCompany(db: Db): Promise<void> {
  await db
    .insert(agents)
    .values(DEFAULT_COMPANY.map(({ id, slug, name, role, team }) => ({ id, slug, name, role, team })))
    .onConflictDoNothing();
}
