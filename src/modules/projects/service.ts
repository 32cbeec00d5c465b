/**
 * Projects: the repositories agents work on. Reads for everyone; creation and changes for the CEO
 * and PMs (cell PMs within their own cell); the git token is sealed on write and opened only for
 * the engines (`gitToken`), never returned or logged.
 */

import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm';
import { type Clock, systemClock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors.js';
import type { Identity } from '../../platform/http/auth/identity.js';
import { AppError, conflict, forbidden, notFound, unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { isDeliveryCell } from '../agents/index.js';
import { projectAccessProblem } from './access.js';
import { applyProjectBody, newProjectState, type ProjectBody, type ProjectState } from './draft.js';
import { GitTokenBox, gitTokenChange } from './git-token.js';
import { projects } from './schema.js';

export type ProjectRow = typeof projects.$inferSelect;
type Caller = Pick<Identity, 'id' | 'role' | 'team'>;

export type CreateProjectInput = ProjectBody & {
  slug: string;
  name: string;
  git_url: string;
  git_token?: string | null;
};
export type UpdateProjectInput = ProjectBody & { git_token?: string | null };

export interface ProjectListFilter {
  cell?: string | undefined;
  /** Only active projects (default true). */
  activeOnly?: boolean | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/** What another module may show about a project without loading all of it. */
export interface ProjectBrief {
  id: string;
  slug: string;
  name: string;
}

const byKey = (key: string) => (isUuid(key) ? eq(projects.id, key.toLowerCase()) : eq(projects.slug, key));

export class ProjectsService {
  private readonly tokens: GitTokenBox | null;

  /** Without `secret` the service still reads projects, but cannot store or open git tokens. */
  constructor(
    private readonly db: Db,
    secret?: string,
    private readonly clock: Clock = systemClock,
    /** How many tasks reference a project (the tasks module's named read, wired by the registry). */
    private readonly taskCountOf: (projectId: string) => Promise<number> = unwired,
  ) {
    this.tokens = secret ? new GitTokenBox(secret) : null;
  }

  /** The project a UUID or slug names; null when there is none. */
  async find(idOrSlug: string): Promise<ProjectRow | null> {
    const [row] = await this.db.select().from(projects).where(byKey(idOrSlug.trim())).limit(1);
    return row ?? null;
  }

  /** Like find, but a missing project is a 404. */
  async get(idOrSlug: string): Promise<ProjectRow> {
    const project = await this.find(idOrSlug);
    if (!project) throw notFound(`there is no project "${idOrSlug}"`);
    return project;
  }

  async list(filter: ProjectListFilter = {}): Promise<{ projects: ProjectRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (filter.cell) conditions.push(eq(projects.assignedCell, filter.cell));
    if (filter.activeOnly !== false) conditions.push(eq(projects.isActive, true));
    const where = and(...conditions);
    const rows = await this.db
      .select()
      .from(projects)
      .where(where)
      .orderBy(asc(projects.slug))
      .limit(filter.limit ?? 100)
      .offset(filter.offset ?? 0);
    const [counted] = await this.db.select({ total: count() }).from(projects).where(where);
    return { projects: rows, total: counted?.total ?? 0 };
  }

  /** Id, slug and name of each existing project among `ids` (unknown ids are left out). */
  async briefs(ids: readonly string[]): Promise<Map<string, ProjectBrief>> {
    const wanted = [...new Set(ids.map((id) => id.toLowerCase()))].filter((id) => isUuid(id));
    if (wanted.length === 0) return new Map();
    const rows = await this.db
      .select({ id: projects.id, slug: projects.slug, name: projects.name })
      .from(projects)
      .where(inArray(projects.id, wanted));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Creates a project. 403 outside the caller's reach, 422 with field details, 409 `slug_taken`. */
  async create(caller: Caller, input: CreateProjectInput): Promise<ProjectRow> {
    const { git_token, ...body } = input;
    // A cell PM's project belongs to its own cell unless it says otherwise.
    if (body.assigned_cell === undefined && caller.role === 'cell_pm' && isDeliveryCell(caller.team)) {
      body.assigned_cell = caller.team;
    }
    const { state, problems } = newProjectState(body);
    this.authorize(caller, state.assignedCell);
    if (problems.length > 0) throw unprocessable('the project is invalid', problems);
    if (await this.find(state.slug)) throw slugTaken(state.slug);
    const id = randomUUID();
    const token = gitTokenChange(git_token);
    const now = this.clock.now();
    try {
      const [row] = await this.db
        .insert(projects)
        .values({
          ...state,
          id,
          gitTokenCiphertext: token ? this.sealToken(id, token) : null,
          createdBy: caller.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    } catch (error) {
      if (isUniqueViolation(error)) throw slugTaken(state.slug);
      throw error;
    }
  }

  /**
   * Changes the fields present in `input`; an explicit null clears. `git_token`: null or absent
   * keeps it, "" clears it, a value replaces it. A cell PM may neither touch another cell's
   * project nor move one of its own out of its cell.
   */
  async update(caller: Caller, idOrSlug: string, input: UpdateProjectInput): Promise<ProjectRow> {
    const { git_token, ...body } = input;
    const current = await this.get(idOrSlug);
    this.authorize(caller, current.assignedCell);
    const { state, problems } = applyProjectBody(stateOf(current), body);
    if (state.assignedCell !== current.assignedCell) this.authorize(caller, state.assignedCell);
    if (problems.length > 0) throw unprocessable('the change is invalid', problems);
    if (state.slug !== current.slug && (await this.find(state.slug))) throw slugTaken(state.slug);
    const token = gitTokenChange(git_token);
    const tokenChange =
      token === undefined
        ? {}
        : { gitTokenCiphertext: token === null ? null : this.sealToken(current.id, token) };
    try {
      const [row] = await this.db
        .update(projects)
        .set({ ...changedColumns(current, state), ...tokenChange, updatedAt: this.clock.now() })
        .where(eq(projects.id, current.id))
        .returning();
      if (!row) throw notFound(`there is no project "${idOrSlug}"`);
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw slugTaken(state.slug);
      throw error;
    }
  }

  /** Deletes a project; 409 `project_in_use` while tasks or products still reference it. */
  async delete(caller: Caller, idOrSlug: string): Promise<void> {
    const project = await this.get(idOrSlug);
    this.authorize(caller, project.assignedCell);
    const referencing = await this.taskCountOf(project.id);
    if (referencing > 0) {
      throw inUse(project.slug, `${referencing} task(s) reference it`, { task_count: referencing });
    }
    try {
      await this.db.delete(projects).where(eq(projects.id, project.id));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw inUse(project.slug, 'tasks or products still reference it');
      throw error;
    }
  }

  /**
   * The hosts a project's agents may reach besides their model (its `agent_network_allow`, entries
   * in the grammar of platform/process/network-allow.ts), for the agent runtime's egress proxy.
   * An unknown project allows nothing extra: a missing row must not widen the fence.
   */
  async agentNetworkAllow(idOrSlug: string): Promise<string[]> {
    const [row] = await this.db
      .select({ allow: projects.agentNetworkAllow })
      .from(projects)
      .where(byKey(idOrSlug.trim()))
      .limit(1);
    return row?.allow ?? [];
  }

  /** The decrypted git token of a project, for the engines; null when none is set. Never log it. */
  async gitToken(projectId: string): Promise<string | null> {
    const project = await this.get(projectId);
    if (!project.gitTokenCiphertext) return null;
    if (!this.tokens) throw new Error('ProjectsService was built without the platform secret');
    return this.tokens.open(project.id, project.gitTokenCiphertext);
  }

  private sealToken(projectId: string, token: string): string {
    if (!this.tokens) throw new Error('ProjectsService was built without the platform secret');
    return this.tokens.seal(projectId, token);
  }

  private authorize(caller: Caller, cell: string | null): void {
    const problem = projectAccessProblem(caller, cell);
    if (problem) throw forbidden(problem);
  }
}

/** The settings columns of a stored project. */
function stateOf(row: ProjectRow): ProjectState {
  const { id: _id, gitTokenCiphertext: _t, createdBy: _c, createdAt: _ca, updatedAt: _u, ...state } = row;
  return { ...state, gitProvider: state.gitProvider as ProjectState['gitProvider'] };
}

/** Only the columns whose value changed, so concurrent edits of different fields do not undo each other. */
function changedColumns(current: ProjectRow, next: ProjectState): Partial<ProjectState> {
  const changed: Partial<Record<keyof ProjectState, unknown>> = {};
  for (const key of Object.keys(next) as (keyof ProjectState)[]) {
    if (JSON.stringify(next[key]) !== JSON.stringify(current[key])) changed[key] = next[key];
  }
  return changed as Partial<ProjectState>;
}

const slugTaken = (slug: string) => conflict('slug_taken', `a project with slug "${slug}" already exists`);
const inUse = (slug: string, why: string, details?: unknown) =>
  new AppError(409, 'project_in_use', `project ${slug} cannot be deleted: ${why}`, details);

const unwired = (): Promise<number> =>
  Promise.reject(new Error('no task count wired into the projects service'));
