/**
 * The CEO's approve-and-merge: the last step of the pipeline. A root task awaiting CEO approval has
 * its pull request (root branch → the project's default branch) merged with real git through the
 * git port — the only merge aimed at the default branch Gaffer ever makes, and only for the CEO —
 * and then completes (`ceo_approve`). A failed merge changes nothing and leaves the task awaiting
 * approval; the git refusal is answered as a 409 naming it.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { AppError } from '../../platform/http/errors.js';
import { TaskIdParams, type TasksService, TaskViewSchema } from '../tasks/index.js';
import { type GatewayGit, GitRefusal } from './git-port.js';

const MergedTaskView = Type.Object({
  task: TaskViewSchema,
  merge_sha: Type.Union([Type.String(), Type.Null()], { description: 'The commit on the default branch.' }),
});

export function registerApproveAndMerge(app: FastifyInstance, tasks: TasksService, git: GatewayGit): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/api/tasks/:id/approve-and-merge',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: ['tasks'],
        summary: 'The CEO merges a root task into the default branch and completes it',
        description:
          'The task must be a root task awaiting CEO approval (else 409 `invalid_state`). Its pull request is merged ' +
          'into the project default branch with real git, then the task completes. A merge git refuses (conflict, ' +
          'nothing to merge) answers 409 `merge_refused` and changes nothing.',
        params: TaskIdParams,
        response: {
          200: MergedTaskView,
          404: errorResponse('No task with this id.'),
          409: errorResponse('`invalid_state` or `merge_refused`.'),
          422: errorResponse('The id is not a UUID.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const actor = await tasks.actorFor(request.identity!);
      const task = await tasks.get(request.params.id);
      if (task.status !== 'awaiting_ceo_approval' || task.parent_task_id !== null) {
        throw new AppError(
          409,
          'invalid_state',
          'only a root task awaiting CEO approval can be approved and merged',
          {
            task_id: task.id,
            status: task.status,
          },
        );
      }
      let sha: string | null;
      try {
        ({ sha } = await git.mergePullRequest(task, actor));
      } catch (error) {
        if (error instanceof GitRefusal)
          throw new AppError(409, 'merge_refused', error.message, { reason: error.code });
        throw error;
      }
      const completed = await tasks.transition(task.id, 'ceo_approve', actor, {
        reason: 'approved and merged',
      });
      return { task: completed, merge_sha: sha };
    },
  );
}
