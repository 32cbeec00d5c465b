/** Projects: the repositories agents work on. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { projects } from './schema.js';

export type ProjectRow = typeof projects.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ProjectsService {
  constructor(private readonly db: Db) {}

  /** The project a UUID or slug names; null when there is none. */
  async find(idOrSlug: string): Promise<ProjectRow | null> {
    const [row] = await this.db
      .select()
      .from(projects)
      .where(UUID.test(idOrSlug) ? eq(projects.id, idOrSlug) : eq(projects.slug, idOrSlug))
      .limit(1);
    return row ?? null;
  }
}
