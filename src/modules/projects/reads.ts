/**
 * Named reads of projects for the engines: the active projects that opted in to CI-watch or to the
 * dependency-update bot, with only the columns each sweep needs, in one query each; and for the
 * dispatcher, the projects with a monthly budget.
 */
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Tx } from '../../platform/bus/index.js';
import type { Db } from '../../platform/db/client.js';
import { projects } from './schema.js';

/** Active projects with CI-watch on. */
export function ciWatchProjects(db: Db) {
  return db
    .select({
      id: projects.id,
      slug: projects.slug,
      gitUrl: projects.gitUrl,
      gitProvider: projects.gitProvider,
      forgeApiUrl: projects.forgeApiUrl,
      defaultBranch: projects.defaultBranch,
      environments: projects.environments,
      protectedBranches: projects.protectedBranches,
      assignedCell: projects.assignedCell,
      ciWatchWorkflow: projects.ciWatchWorkflow,
    })
    .from(projects)
    .where(and(eq(projects.isActive, true), eq(projects.ciWatchEnabled, true)));
}

/** Active projects with a dependency-update command. */
export function depUpdateProjects(db: Db) {
  return db
    .select({
      id: projects.id,
      slug: projects.slug,
      gitUrl: projects.gitUrl,
      defaultBranch: projects.defaultBranch,
      environments: projects.environments,
      depUpdateCommand: projects.depUpdateCommand,
      depUpdatePaths: projects.depUpdatePaths,
      agentNetworkAllow: projects.agentNetworkAllow,
    })
    .from(projects)
    .where(and(eq(projects.isActive, true), isNotNull(projects.depUpdateCommand)));
}

/** Which of `ids` name an existing project (ids only), on the caller's handle. */
export function existingProjectIds(db: Db | Tx, ids: readonly string[]): Promise<{ id: string }[]> {
  return db
    .select({ id: projects.id })
    .from(projects)
    .where(inArray(projects.id, [...ids]));
}

/** Projects with a monthly budget: id, slug and the cap (USD). */
export async function budgetedProjects(db: Db): Promise<{ id: string; slug: string; capUsd: number }[]> {
  const rows = await db
    .select({ id: projects.id, slug: projects.slug, cap: projects.monthlyBudgetUsd })
    .from(projects)
    .where(isNotNull(projects.monthlyBudgetUsd));
  return rows.map((row) => ({ id: row.id, slug: row.slug, capUsd: row.cap! }));
}
