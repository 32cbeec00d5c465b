/** TypeBox schemas of GET /api/kanban: they validate, serialise and document (/docs) the same shapes. */
import { Type } from 'typebox';
import { TEAMS } from '../../platform/http/auth/identity.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import { DEFAULT_COLUMN_LIMIT, KANBAN_STATES, MAX_COLUMN_LIMIT, RECENT_TERMINAL_CARDS } from './board.js';

export const TAGS = ['kanban'];

export const KanbanQuery = Type.Object({
  project_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only tasks of this project.' })),
  team: Type.Optional(StringEnum(TEAMS, { description: 'Only tasks owned by this team.' })),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Text search: only tasks whose title contains this text or whose id starts with it (any case).',
    }),
  ),
  include_terminal: Type.Boolean({
    default: false,
    description: `Show completed and cancelled cards up to \`limit\`; by default only the ${RECENT_TERMINAL_CARDS} most recent of each.`,
  }),
  limit: Type.Integer({
    minimum: 1,
    maximum: MAX_COLUMN_LIMIT,
    default: DEFAULT_COLUMN_LIMIT,
    description: 'Cards per column at most; counts are always the true totals.',
  }),
});

const nullableUuid = Type.Union([Type.String({ format: 'uuid' }), Type.Null()]);

export const KanbanCardView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    id8: Type.String({ description: 'The first 8 characters of the id, as in branch names.' }),
    title: Type.String(),
    status: Type.String(),
    priority: Type.Integer({ description: '0 is the highest.' }),
    team: Type.String(),
    project_id: nullableUuid,
    assigned_to: nullableUuid,
    parent_task_id: nullableUuid,
    source: Type.String({ description: 'Who or what opened the task: manual, ci_watch, dep_update, …' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A task as a compact card.' },
);

export const KanbanColumnView = Type.Object({
  status: StringEnum(KANBAN_STATES),
  count: Type.Integer({ minimum: 0, description: 'Every task in this state (under the filters).' }),
  truncated: Type.Boolean({ description: 'count is greater than the cards shown.' }),
  cards: Type.Array(KanbanCardView, {
    description:
      'Active states by (priority, most recently updated); completed and cancelled most recent first.',
  }),
});

export const KanbanBoardView = Type.Object(
  {
    columns: Type.Array(KanbanColumnView, {
      description: 'All fifteen states in pipeline order, empty ones included.',
    }),
    total: Type.Integer({ minimum: 0, description: 'Tasks on the board (under the filters).' }),
  },
  { description: 'Tasks grouped by state.' },
);
