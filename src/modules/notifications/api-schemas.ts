/** TypeBox schemas of the /api/notifications routes: they validate, serialise and document (/docs). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { NOTIFICATION_LIMITS, NOTIFICATION_PRIORITIES, NOTIFICATION_TYPES } from './rules.js';

export const TAGS = ['notifications'];

const Uuid = (description: string) => Type.String({ format: 'uuid', description });
const NullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const NotificationTypeSchema = StringEnum(NOTIFICATION_TYPES, {
  description: 'What the notification is about.',
});
export const PrioritySchema = StringEnum(NOTIFICATION_PRIORITIES, { description: 'How urgent it is.' });

export const NotificationIdParams = Type.Object({ id: Uuid('The notification’s UUID.') });

export const SendNotificationBody = Type.Object(
  {
    type: NotificationTypeSchema,
    priority: Type.Optional(PrioritySchema),
    recipients: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: NOTIFICATION_LIMITS.recipientsMax,
      description: 'Recipient agents by UUID or slug.',
    }),
    subject: Type.String({ minLength: 1, maxLength: NOTIFICATION_LIMITS.subjectMax }),
    body: Type.String({ maxLength: NOTIFICATION_LIMITS.bodyMax }),
    related_task_id: Type.Optional(Type.Union([Uuid('The task this is about.'), Type.Null()])),
  },
  { additionalProperties: false },
);

export const ListQuery = Type.Object(
  {
    unread_only: Type.Optional(Type.Boolean({ description: 'Only notifications not yet read.' })),
    pending_ack_only: Type.Optional(Type.Boolean({ description: 'Only ones still waiting for your ack.' })),
    type: Type.Optional(NotificationTypeSchema),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: NOTIFICATION_LIMITS.listMax,
        default: NOTIFICATION_LIMITS.listDefault,
      }),
    ),
  },
  { additionalProperties: false },
);

const commonFields = {
  id: Uuid('The notification’s UUID.'),
  type: Type.String(),
  priority: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  ack_required: Type.Boolean({
    description: 'True for priority_change, blocker_escalation, approval, alert.',
  }),
  sender_id: Type.String({ description: 'Identity id of the sender.' }),
  sender_role: Type.String(),
  related_task_id: Type.Union([Type.String(), Type.Null()]),
  sent_at: Type.String({ format: 'date-time' }),
  expires_at: NullableTime('The ack deadline, after which it is re-escalated; null when none.'),
  resolved_at: NullableTime('When it stopped being chased (acked, or its task closed).'),
  resolution: Type.Union([StringEnum(['acked', 'task_closed']), Type.Null()]),
  escalation_count: Type.Integer({ description: 'Re-escalations so far.' }),
};

export const NotificationView = Type.Object(
  {
    ...commonFields,
    read_at: NullableTime('When you read it.'),
    acked_at: NullableTime('When you acknowledged it.'),
  },
  { additionalProperties: false },
);

export const SentNotificationView = Type.Object(
  {
    ...commonFields,
    recipients: Type.Array(
      Type.Object({ id: Type.String(), slug: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

export const NotificationListView = Type.Object(
  {
    notifications: Type.Array(NotificationView),
    unread_count: Type.Integer({ description: 'All your unread notifications (not only this page).' }),
    pending_ack_count: Type.Integer({ description: 'All your notifications still waiting for your ack.' }),
  },
  { additionalProperties: false },
);
