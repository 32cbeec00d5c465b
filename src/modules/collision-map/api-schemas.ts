/** TypeBox schemas of GET /api/tasks/{id}/collision-map: they validate, serialise and document (/docs). */
import { Type } from 'typebox';

export const TAGS = ['tasks'];

export const TaskIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The full 36-character task UUID.' }),
});

const Globs = (description: string) => Type.Array(Type.String(), { description });

export const CollidingSiblingView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    id8: Type.String({ description: 'The first 8 characters of the id, as in branch names.' }),
    title: Type.String(),
    status: Type.String(),
    branch_name: Type.Union([Type.String(), Type.Null()]),
    pr_number: Type.Union([Type.Integer(), Type.Null()]),
    sequence: Type.Integer(),
    intends_to_touch: Globs('The sibling’s first five declared path globs.'),
    adds_migration: Type.Boolean(),
    touches_shared: Type.Boolean(),
    overlap: Globs(
      'Up to five of the sibling’s globs that overlap the task’s. Empty when the collision is two migrations.',
    ),
  },
  { description: 'A same-parent sibling whose declared surface collides with the task’s.' },
);

export const CollisionMapView = Type.Object(
  {
    task_id: Type.String({ format: 'uuid' }),
    parent_task_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    intends_to_touch: Globs('The task’s declared path globs.'),
    adds_migration: Type.Boolean(),
    touches_shared: Type.Boolean(),
    siblings: Type.Array(CollidingSiblingView, {
      description:
        'Colliding siblings by (priority, sequence, id), at most 10. Always empty for a root task.',
    }),
    truncated: Type.Boolean({ description: 'More siblings collide than are listed.' }),
  },
  { description: 'The task’s declared surface and the same-parent siblings it collides with.' },
);
