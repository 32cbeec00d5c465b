/** TypeBox schemas of `GET /api/tasks/activity` (recent audit rows across all tasks). */
import { Type } from 'typebox';
import { QueryInteger } from '../../platform/http/schema-types.js';
import { ACTIVITY_LIMITS } from './activity.js';
import { TaskEventView } from './api-schemas.js';

export const ActivityQuery = Type.Object(
  {
    limit: Type.Optional(
      QueryInteger({ minimum: 1, maximum: ACTIVITY_LIMITS.max, default: ACTIVITY_LIMITS.default }),
    ),
    before: Type.Optional(
      QueryInteger({
        minimum: 1,
        description: 'Only events older than this event id (the last `id` of a page).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ActivityList = Type.Object(
  {
    events: Type.Array(
      Type.Intersect([
        TaskEventView,
        Type.Object({
          task_title: Type.String(),
          task_source: Type.String({ description: '`manual`, or the engine that opened the task.' }),
        }),
      ]),
      { description: 'Newest first.' },
    ),
  },
  { description: 'Recent task activity across all tasks, newest first.' },
);
