/** GET /api/tasks/{id}/collision-map, for any authenticated caller. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse } from '../../platform/http/error-schema.js';
import { CollisionMapView, TAGS, TaskIdParams } from './api-schemas.js';
import type { CollisionMap, CollisionMapService } from './service.js';

const view = (map: CollisionMap) => ({
  task_id: map.taskId,
  parent_task_id: map.parentTaskId,
  intends_to_touch: map.intendsToTouch,
  adds_migration: map.addsMigration,
  touches_shared: map.touchesShared,
  siblings: map.siblings.map((s) => ({
    id: s.id,
    id8: s.id.slice(0, 8),
    title: s.title,
    status: s.status,
    branch_name: s.branchName,
    pr_number: s.prNumber,
    sequence: s.sequence,
    intends_to_touch: s.intendsToTouch,
    adds_migration: s.addsMigration,
    touches_shared: s.touchesShared,
    overlap: s.overlap,
  })),
  truncated: map.truncated,
});

export function registerCollisionMapRoutes(app: FastifyInstance, service: CollisionMapService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/tasks/:id/collision-map',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'The task’s declared surface and the same-parent siblings it collides with',
        description:
          'Candidates are same-parent siblings in the same project (cancelled ones excluded) that declare a ' +
          'surface. A sibling collides when one of its path globs overlaps one of the task’s — equal, a glob ' +
          'matching the other’s path, directory containment (`src/api` or `src/api/**` holds ' +
          '`src/api/users.ts`), or two globs able to match a common path — or when both add a migration. ' +
          'Touching shared code alone never collides.',
        params: TaskIdParams,
        response: { 200: CollisionMapView, ...authErrorResponses, 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => view(await service.forTask(request.params.id)),
  );
}
