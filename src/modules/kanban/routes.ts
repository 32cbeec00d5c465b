/** GET /api/kanban, for any authenticated caller. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse } from '../../platform/http/error-schema.js';
import { exactViewSerializer } from '../../platform/http/view-serializer.js';
import { KanbanBoardView, KanbanQuery, TAGS } from './api-schemas.js';
import type { KanbanBoard, KanbanCard, KanbanService } from './service.js';

const cardView = (card: KanbanCard) => ({
  id: card.id,
  id8: card.id.slice(0, 8),
  title: card.title,
  status: card.status,
  priority: card.priority,
  team: card.team,
  project_id: card.projectId,
  assigned_to: card.assignedTo,
  parent_task_id: card.parentTaskId,
  source: card.source,
  updated_at: card.updatedAt.toISOString(),
});

const boardView = (board: KanbanBoard) => ({
  columns: board.columns.map(({ status, count, truncated, cards }) => ({
    status,
    count,
    truncated,
    cards: cards.map(cardView),
  })),
  total: board.total,
});

export function registerKanbanRoutes(app: FastifyInstance, service: KanbanService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/kanban',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'The board: tasks grouped by state, with counts',
        description:
          'One column per task state, in pipeline order, each with its true count and at most `limit` cards. ' +
          'Completed and cancelled show only their most recent cards unless `include_terminal=true`.',
        querystring: KanbanQuery,
        response: { 200: KanbanBoardView, ...authErrorResponses, 422: ErrorResponse },
      },
      // The board is built field by field below (cardView, boardView): a thousand cards and more.
      serializerCompiler: exactViewSerializer,
    },
    async (request) => {
      const { project_id, team, q, include_terminal, limit } = request.query;
      return boardView(
        await service.board({
          projectId: project_id,
          team,
          text: q,
          includeTerminal: include_terminal,
          limit,
        }),
      );
    },
  );
}
