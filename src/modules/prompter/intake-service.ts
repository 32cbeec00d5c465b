/**
 * The intake chat's own operations around the shared bridge: the scope a chat starts with (a
 * project, a product or several projects, each checked through the projects/products reads), and
 * the CEO's confirmation of the proposal, which opens the real task(s) through the tasks service,
 * routed to the main PM (who plans and delegates) or to the board (which reviews first).
 */
import type { Identity } from '../../platform/http/auth/index.js';
import { conflict, unprocessable } from '../../platform/http/errors.js';
import type { LiveChatBridge } from '../live-chat/index.js';
import type { ProductsModule } from '../products/index.js';
import type { ProjectsModule } from '../projects/index.js';
import type { CreateTaskInput, TaskNature, TasksModule, TaskType, TaskView } from '../tasks/index.js';
import type { IntakeRoute } from './api-schemas.js';
import type { IntakeDraft, TaskDraftInput } from './intake-agent.js';

export interface StartScope {
  project_id?: string | undefined;
  product_id?: string | undefined;
  project_ids?: string[] | undefined;
}

export interface ConfirmInput {
  route?: IntakeRoute | undefined;
  draft?: Partial<TaskDraftInput> | undefined;
  tasks?: TaskDraftInput[] | undefined;
}

const TECHNICAL_TYPES: readonly TaskType[] = ['code', 'design', 'planning'];

export class IntakeService {
  constructor(
    private readonly bridge: LiveChatBridge,
    private readonly deps: {
      projects: Pick<ProjectsModule, 'service'>;
      products: Pick<ProductsModule, 'service'>;
      tasks: Pick<TasksModule, 'service'>;
    },
  ) {}

  /** The scope as stored on the session (ids resolved, names for the prompt); 422 when it is not one. */
  async scopeOf(body: StartScope): Promise<Record<string, unknown>> {
    const given = (['project_id', 'product_id', 'project_ids'] as const).filter((k) => body[k] !== undefined);
    if (given.length !== 1)
      throw unprocessable('give exactly one scope: project_id, product_id or project_ids', [
        {
          field: 'body.project_id',
          message: `exactly one of project_id, product_id, project_ids (got ${given.length})`,
        },
      ]);
    if (body.project_id) {
      const project = await this.project(body.project_id, 'body.project_id');
      return { project_id: project.id, project_name: project.name };
    }
    if (body.product_id) {
      const product = await this.deps.products.service.find(body.product_id);
      if (!product)
        throw unprocessable(`there is no product "${body.product_id}"`, [
          { field: 'body.product_id', message: 'no such product' },
        ]);
      return { product_id: product.id, product_name: product.name };
    }
    const projects = [];
    for (const [i, id] of (body.project_ids ?? []).entries())
      projects.push(await this.project(id, `body.project_ids[${i}]`));
    return { project_ids: projects.map((p) => p.id), project_names: projects.map((p) => p.name) };
  }

  /** Opens the proposed task(s); 409 `no_draft` when nothing is proposed, 409 once the session ended. */
  async confirm(sessionId: string, identity: Identity, input: ConfirmInput) {
    const session = await this.bridge.activeSession(sessionId, identity.id);
    const draft = session.draft as IntakeDraft | null;
    if (!draft) throw conflict('no_draft', 'nothing has been proposed in this chat yet');
    const route = input.route ?? 'main_pm';
    const drafts = draft.kind === 'task' ? [{ ...draft.task, ...input.draft }] : (input.tasks ?? draft.tasks);
    const scope = session.scope;
    const actor = await this.deps.tasks.service.actorFor(identity);
    const created: TaskView[] = [];
    for (const task of drafts) {
      created.push(
        await this.deps.tasks.service.create(this.taskInput(task, route, scope, sessionId), actor),
      );
    }
    await this.bridge.store.setDraft(sessionId, null);
    const task_ids = created.map((t) => t.id);
    await this.bridge.record(sessionId, 'created', { route, task_ids });
    return {
      route,
      task_ids,
      tasks: created.map((t) => ({ id: t.id, title: t.title, team: t.team, status: t.status })),
    };
  }

  private taskInput(
    draft: TaskDraftInput,
    route: IntakeRoute,
    scope: Record<string, unknown>,
    sessionId: string,
  ): CreateTaskInput {
    // A root task goes to the main PM or the board, who plan it: never a fresh code task there.
    const taskType: TaskType = draft.type === 'code' ? 'planning' : draft.type;
    const nature: TaskNature = TECHNICAL_TYPES.includes(draft.type) ? 'technical' : 'non_technical';
    const projectIds = Array.isArray(scope.project_ids) ? (scope.project_ids as string[]) : null;
    const target = projectIds
      ? {
          project_id:
            draft.project_id && projectIds.includes(draft.project_id) ? draft.project_id : projectIds[0]!,
        }
      : scope.project_id
        ? { project_id: String(scope.project_id) }
        : { product_id: String(scope.product_id) };
    return {
      title: draft.title,
      description: `${draft.description}\n\nProposed through the intake interview for the ${draft.team} team as ${draft.type} work.`,
      acceptance_criteria: draft.acceptance_criteria,
      team: route,
      task_type: taskType,
      nature,
      complexity: 'medium',
      ...target,
      source: 'prompter',
      confirmed: true,
      markers: { intake_session: sessionId, proposed_team: draft.team, proposed_type: draft.type },
    };
  }

  private async project(id: string, field: string) {
    const project = await this.deps.projects.service.find(id);
    if (!project) throw unprocessable(`there is no project "${id}"`, [{ field, message: 'no such project' }]);
    return project;
  }
}
