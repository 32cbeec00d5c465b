/**
 * Pitches: the board (product owner, head of marketing) proposes a product; the CEO approves or
 * rejects it once (a decided pitch is a 409 `pitch_decided`). Approval provisions, reusing what a
 * retried approval already made: per target cell a repository (on the provisioning forge when one is configured, else a local
 * bare repository) and a
 * project on it, a product routing the cells when there are several, and a planning task for the
 * main PM. While it runs the pitch is `provisioning`, so a second approval cannot race it; if a
 * step fails the pitch goes back to `proposed` and the error passes through.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import type { ProductsService } from '../products/index.js';
import type { ProjectsService } from '../projects/index.js';
import type { TasksService } from '../tasks/index.js';
import { type PitchCell, type PitchStatus, projectName, projectSlug } from './rules.js';
import { pitches } from './schema.js';

export interface PitchActor {
  id: string;
  slug: string;
  role: Parameters<TasksService['create']>[1]['role'];
  team: string | null;
}

export interface PitchPorts {
  projects: Pick<ProjectsService, 'find' | 'create'>;
  products: Pick<ProductsService, 'find' | 'create'>;
  tasks: Pick<TasksService, 'create'>;
  /** The main PM's roster slug, or null when the roster has none. */
  mainPm(): Promise<string | null>;
  /** Tells the CEO a pitch waits for a decision (a failure is logged by the port, never the proposer's). */
  proposed?: ((pitch: PitchView, by: PitchActor) => Promise<void>) | undefined;
  /** A new repository for `slug` with its first commit (on the provisioning forge, else local). */
  repository(slug: string, readme: string, description: string): Promise<ProjectRepository>;
}

/** Where a provisioned project's code lives. */
export interface ProjectRepository {
  gitUrl: string;
  provider: 'local' | 'github' | 'gitea';
  /** The forge's REST base URL; null for a local repository. */
  apiUrl: string | null;
  /** The token the project clones and calls the forge with; null for a local repository. */
  token: string | null;
}

export interface NewPitch {
  title: string;
  slug: string;
  problem: string;
  proposal: string;
  target_cells: PitchCell[];
}

export interface PitchView {
  id: string;
  slug: string;
  title: string;
  problem: string;
  proposal: string;
  target_cells: string[];
  status: string;
  proposed_by: string;
  decided_by: string | null;
  decision_notes: string | null;
  decided_at: string | null;
  project_ids: string[];
  product_id: string | null;
  task_id: string | null;
  created_at: string;
  updated_at: string;
}

type Row = typeof pitches.$inferSelect;

const view = (row: Row): PitchView => ({
  id: row.id,
  slug: row.slug,
  title: row.title,
  problem: row.problem,
  proposal: row.proposal,
  target_cells: row.targetCells,
  status: row.status,
  proposed_by: row.proposedBy,
  decided_by: row.decidedBy,
  decision_notes: row.decisionNotes,
  decided_at: row.decidedAt?.toISOString() ?? null,
  project_ids: row.projectIds,
  product_id: row.productId,
  task_id: row.taskId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const decided = (row: Row) =>
  conflict('pitch_decided', `pitch ${row.slug} is ${row.status}; only a proposed pitch is decided`, {
    status: row.status,
  });

export class PitchesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ports: PitchPorts,
  ) {}

  async propose(by: PitchActor, input: NewPitch): Promise<PitchView> {
    const now = this.clock.now();
    try {
      const [row] = await this.db
        .insert(pitches)
        .values({
          id: randomUUID(),
          slug: input.slug,
          title: input.title.trim(),
          problem: input.problem.trim(),
          proposal: input.proposal.trim(),
          targetCells: [...new Set(input.target_cells)],
          status: 'proposed',
          proposedBy: by.slug,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const pitch = view(row!);
      await this.ports.proposed?.(pitch, by);
      return pitch;
    } catch (error) {
      if (isUniqueViolation(error))
        throw conflict('slug_taken', `a pitch named ${input.slug} exists already`);
      throw error;
    }
  }

  async list(status?: PitchStatus): Promise<PitchView[]> {
    const conditions: SQL[] = status ? [eq(pitches.status, status)] : [];
    const rows = await this.db
      .select()
      .from(pitches)
      .where(and(...conditions))
      .orderBy(desc(pitches.createdAt));
    return rows.map(view);
  }

  async get(id: string): Promise<PitchView> {
    return view(await this.row(id));
  }

  async reject(id: string, notes: string, by: PitchActor): Promise<PitchView> {
    const now = this.clock.now();
    const [row] = await this.db
      .update(pitches)
      .set({
        status: 'rejected',
        decidedBy: by.slug,
        decisionNotes: notes.trim(),
        decidedAt: now,
        updatedAt: now,
      })
      .where(and(eq(pitches.id, id), eq(pitches.status, 'proposed')))
      .returning();
    if (!row) throw decided(await this.row(id));
    return view(row);
  }

  /** Approves a proposed pitch and provisions its projects, product and main PM task. */
  async approve(id: string, notes: string | null, by: PitchActor): Promise<PitchView> {
    const [claimed] = await this.db
      .update(pitches)
      .set({ status: 'provisioning', updatedAt: this.clock.now() })
      .where(and(eq(pitches.id, id), eq(pitches.status, 'proposed')))
      .returning();
    if (!claimed) throw decided(await this.row(id));
    try {
      const made = await this.provision(claimed, by);
      const now = this.clock.now();
      const [row] = await this.db
        .update(pitches)
        .set({
          status: 'provisioned',
          decidedBy: by.slug,
          decisionNotes: notes?.trim() || null,
          decidedAt: now,
          updatedAt: now,
          ...made,
        })
        .where(eq(pitches.id, id))
        .returning();
      return view(row!);
    } catch (error) {
      await this.db
        .update(pitches)
        .set({ status: 'proposed', updatedAt: this.clock.now() })
        .where(eq(pitches.id, id));
      throw error;
    }
  }

  private async provision(pitch: Row, by: PitchActor) {
    const cells = pitch.targetCells;
    const projects: { team: string; id: string }[] = [];
    for (const cell of cells) {
      const slug = projectSlug(pitch.slug, cell, cells.length);
      const existing = await this.ports.projects.find(slug);
      if (existing) {
        projects.push({ team: cell, id: existing.id });
        continue;
      }
      const repository = await this.ports.repository(
        slug,
        `# ${pitch.title}\n\n${pitch.problem}\n\n${pitch.proposal}\n`,
        pitch.title,
      );
      const project = await this.ports.projects.create(
        { id: by.id, role: by.role, team: by.team ?? '' },
        {
          slug,
          name: projectName(pitch.title, cell, cells.length),
          git_url: repository.gitUrl,
          git_provider: repository.provider,
          ...(repository.apiUrl ? { forge_api_url: repository.apiUrl } : {}),
          ...(repository.token ? { git_token: repository.token } : {}),
          assigned_cell: cell as PitchCell,
        },
      );
      projects.push({ team: cell, id: project.id });
    }
    let productId: string | null = null;
    if (cells.length > 1) {
      const product =
        (await this.ports.products.find(pitch.slug)) ??
        (await this.ports.products.create(by.slug, {
          slug: pitch.slug,
          name: pitch.title,
          description: pitch.problem,
          cells: projects.map((p) => ({ team: p.team, project_id: p.id })),
        }));
      productId = product.id;
    }
    const mainPm = await this.ports.mainPm();
    const task = await this.ports.tasks.create(
      {
        title: `Plan ${pitch.title}`.slice(0, 200),
        description: `Approved pitch ${pitch.slug}.\n\nProblem:\n${pitch.problem}\n\nProposal:\n${pitch.proposal}`,
        acceptance_criteria: [
          `The work of ${pitch.title} is broken into tasks for the ${cells.join(', ')} cell(s).`,
        ],
        team: 'main_pm',
        task_type: 'planning',
        nature: 'technical',
        complexity: 'medium',
        ...(productId ? { product_id: productId } : { project_id: projects[0]!.id }),
        ...(mainPm ? { assigned_to: mainPm } : {}),
      },
      by,
    );
    return { projectIds: projects.map((p) => p.id), productId, taskId: task.id };
  }

  private async row(id: string): Promise<Row> {
    const [row] = await this.db.select().from(pitches).where(eq(pitches.id, id)).limit(1);
    if (!row) throw notFound(`there is no pitch ${id}`);
    return row;
  }
}
