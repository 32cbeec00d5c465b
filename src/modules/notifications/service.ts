/**
 * Notifications: send (one row plus a row per recipient, NOTIFICATION_SENT per recipient after
 * commit, then relayed to the chat), the caller's own list, read and ack (NOTIFICATION_ACKED after
 * commit), and `sweep(now)`: auto-resolution and re-escalation of unacked ack-required ones.
 */
import { and, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { inTransaction } from '../../platform/bus/index.js';
import type { Platform } from '../../platform/context.js';
import type { Role } from '../../platform/http/auth/identity.js';
import { AppError, badRequest, forbidden, notFound } from '../../platform/http/errors.js';
import type { AgentsService } from '../agents/index.js';
import type { ChatRelayService } from '../chat-relay/index.js';
import { taskExists, taskRow } from '../tasks/index.js';
import { panelLinkOf } from './panel-link.js';
import { pendingAck } from './pending-summary.js';
import { type ResolvedRecipient, resolveRecipients } from './recipients.js';
import {
  ackDeadline,
  type EscalationPolicy,
  isAckRequired,
  type NotificationPriority,
  type NotificationType,
} from './rules.js';
import { notificationRecipients, notifications } from './schema.js';
import { queueSent } from './sent-event.js';
import { runSweep, type SweepReport } from './sweep.js';
import { type NotificationRow, type NotificationView, toNotificationView } from './views.js';

export interface SendNotificationInput {
  type: NotificationType;
  priority?: NotificationPriority | undefined;
  /** Agent UUIDs or slugs. */
  recipients: string[];
  subject: string;
  body: string;
  related_task_id?: string | null | undefined;
}

/** Who sends: an identity id (agent UUID or slug, or a fixed id) and its role. */
export interface NotificationActor {
  id: string;
  role: Role;
}

export interface SentNotification extends Omit<NotificationView, 'read_at' | 'acked_at'> {
  recipients: ResolvedRecipient[];
}

export interface NotificationListFilter {
  unreadOnly?: boolean | undefined;
  pendingAckOnly?: boolean | undefined;
  type?: NotificationType | undefined;
  limit?: number | undefined;
}

export interface NotificationList {
  notifications: NotificationView[];
  unread_count: number;
  pending_ack_count: number;
}

export interface NotificationsServiceDeps {
  agents: AgentsService;
  chatRelay: ChatRelayService;
}

export class NotificationsService {
  readonly policy: EscalationPolicy;

  constructor(
    private readonly platform: Platform,
    private readonly deps: NotificationsServiceDeps,
  ) {
    const { config } = platform;
    this.policy = {
      ackTtlHours: config.notificationAckTtlHours,
      baseSeconds: config.notificationReescalationBaseSeconds,
      maxReescalations: config.notificationMaxReescalations,
    };
  }

  private get db() {
    return this.platform.database.db;
  }

  /**
   * Sends a notification. Everything is written in one transaction; NOTIFICATION_SENT goes out per
   * recipient only after it commits, and then the chat relay gets it (never failing the send).
   * 422 `unknown_recipient` / `unknown_task`.
   */
  async send(input: SendNotificationInput, actor: NotificationActor): Promise<SentNotification> {
    const now = this.platform.clock.now();
    const ackRequired = isAckRequired(input.type);
    const expiresAt = ackDeadline(ackRequired, now, this.policy);
    const sent = await inTransaction(this.db, this.platform.bus, async (tx, events) => {
      if (input.related_task_id) {
        if (!(await taskExists(tx, input.related_task_id)))
          throw new AppError(422, 'unknown_task', `no task ${input.related_task_id}`);
      }
      const [row] = await tx
        .insert(notifications)
        .values({
          type: input.type,
          priority: input.priority ?? 'normal',
          subject: input.subject,
          body: input.body,
          ackRequired,
          senderId: actor.id,
          senderRole: actor.role,
          relatedTaskId: input.related_task_id ?? null,
          sentAt: now,
          expiresAt,
          nextEscalationAt: expiresAt,
        })
        .returning();
      const notification = row!;
      const recipients = await resolveRecipients(tx, input.recipients);
      await tx
        .insert(notificationRecipients)
        .values(recipients.map((r) => ({ notificationId: notification.id, recipientId: r.id })));
      for (const recipient of recipients) queueSent(events, notification, recipient.id);
      return { notification, recipients };
    });
    this.relay(sent.notification, sent.recipients, actor.id);
    const {
      read_at: _r,
      acked_at: _a,
      ...view
    } = toNotificationView(sent.notification, {
      readAt: null,
      ackedAt: null,
    });
    return { ...view, recipients: sent.recipients };
  }

  /** The caller's own notifications, newest first, with their unread and pending-ack counts. */
  async list(caller: string, filter: NotificationListFilter = {}): Promise<NotificationList> {
    const agentId = await this.agentIdOf(caller);
    if (!agentId) return { notifications: [], unread_count: 0, pending_ack_count: 0 };
    const mine = eq(notificationRecipients.recipientId, agentId);
    const conditions: SQL[] = [mine];
    if (filter.unreadOnly) conditions.push(isNull(notificationRecipients.readAt));
    if (filter.pendingAckOnly) conditions.push(...pendingAck());
    if (filter.type) conditions.push(eq(notifications.type, filter.type));
    const rows = await this.db
      .select({ notification: notifications, recipient: notificationRecipients })
      .from(notificationRecipients)
      .innerJoin(notifications, eq(notifications.id, notificationRecipients.notificationId))
      .where(and(...conditions))
      .orderBy(desc(notifications.sentAt), desc(notifications.id))
      .limit(filter.limit ?? 50);
    const [unread] = await this.db
      .select({ n: count() })
      .from(notificationRecipients)
      .where(and(mine, isNull(notificationRecipients.readAt)));
    const [pending] = await this.db
      .select({ n: count() })
      .from(notificationRecipients)
      .innerJoin(notifications, eq(notifications.id, notificationRecipients.notificationId))
      .where(and(mine, ...pendingAck()));
    return {
      notifications: rows.map((r) => toNotificationView(r.notification, r.recipient)),
      unread_count: Number(unread?.n ?? 0),
      pending_ack_count: Number(pending?.n ?? 0),
    };
  }

  /** One of the caller's notifications, marked read. 404 unknown, 403 not a recipient. */
  async get(id: string, caller: string): Promise<NotificationView> {
    const { notification, recipientId } = await this.ownRecipient(id, caller);
    const recipient = await this.markRead(notification.id, recipientId);
    return toNotificationView(notification, recipient);
  }

  /** Marks one of the caller's notifications read (idempotent). */
  async read(id: string, caller: string): Promise<void> {
    const { notification, recipientId } = await this.ownRecipient(id, caller);
    await this.markRead(notification.id, recipientId);
  }

  /**
   * Acknowledges one of the caller's notifications (idempotent; it is also marked read); the
   * notification stops being chased. 400 `ack_not_required` for a type that needs none.
   */
  async ack(id: string, caller: string): Promise<NotificationView> {
    const { notification, recipientId } = await this.ownRecipient(id, caller);
    if (!notification.ackRequired) {
      throw badRequest('ack_not_required', `a ${notification.type} notification needs no acknowledgement`);
    }
    const now = this.platform.clock.now();
    const result = await inTransaction(this.db, this.platform.bus, async (tx, events) => {
      const [acked] = await tx
        .update(notificationRecipients)
        .set({ ackedAt: now })
        .where(
          and(
            eq(notificationRecipients.notificationId, notification.id),
            eq(notificationRecipients.recipientId, recipientId),
            isNull(notificationRecipients.ackedAt),
          ),
        )
        .returning();
      await tx
        .update(notificationRecipients)
        .set({ readAt: now })
        .where(
          and(
            eq(notificationRecipients.notificationId, notification.id),
            eq(notificationRecipients.recipientId, recipientId),
            isNull(notificationRecipients.readAt),
          ),
        );
      const [resolved] = await tx
        .update(notifications)
        .set({ resolvedAt: now, resolution: 'acked', nextEscalationAt: null })
        .where(and(eq(notifications.id, notification.id), isNull(notifications.resolvedAt)))
        .returning();
      if (acked)
        events.add('NOTIFICATION_ACKED', { notification_id: notification.id, recipient_id: recipientId });
      const [recipient] = await tx
        .select()
        .from(notificationRecipients)
        .where(
          and(
            eq(notificationRecipients.notificationId, notification.id),
            eq(notificationRecipients.recipientId, recipientId),
          ),
        );
      return { row: resolved ?? notification, recipient: recipient! };
    });
    return toNotificationView(result.row, result.recipient);
  }

  /**
   * One pass of the expiry rules at `now`: resolves ack-required notifications whose task closed
   * (or that were acked), and re-escalates overdue unacked ones up the escalation chain. Each
   * re-escalation is claimed with a compare-and-set on the escalation count, so concurrent sweeps
   * (other replicas) never send the same one twice. Driven by the scheduler, or by tests.
   */
  async sweep(now: Date = this.platform.clock.now()): Promise<SweepReport> {
    return runSweep(
      { db: this.db, bus: this.platform.bus, agents: this.deps.agents, policy: this.policy },
      now,
      (row, recipient) => this.relay(row, [recipient], 'system'),
    );
  }

  /** Relays to the chat (best effort, never awaited), with the panel page it is about. */
  private relay(row: NotificationRow, recipients: ResolvedRecipient[], sender: string): void {
    this.deps.chatRelay.relay(
      {
        type: row.type,
        priority: row.priority,
        subject: row.subject,
        body: row.body,
        sender,
        recipients: recipients.map((r) => r.slug),
        ackRequired: row.ackRequired,
        escalation: row.escalationCount,
      },
      () => this.panelLink(row),
    );
  }

  /** The panel page of the notification (panel-link.ts); null without GAFFER_PUBLIC_URL. */
  private async panelLink(row: NotificationRow): Promise<string | null> {
    const { publicUrl } = this.platform.config;
    if (!publicUrl) return null;
    const task = row.relatedTaskId ? await taskRow(this.db, row.relatedTaskId) : null;
    return panelLinkOf(publicUrl, task);
  }

  private async agentIdOf(caller: string): Promise<string | null> {
    return (await this.deps.agents.resolve(caller))?.id ?? null;
  }

  private async ownRecipient(id: string, caller: string) {
    const [notification] = await this.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, id))
      .limit(1);
    if (!notification) throw notFound(`no notification ${id}`);
    const agentId = await this.agentIdOf(caller);
    const [recipient] = agentId
      ? await this.db
          .select()
          .from(notificationRecipients)
          .where(
            and(
              eq(notificationRecipients.notificationId, id),
              eq(notificationRecipients.recipientId, agentId),
            ),
          )
          .limit(1)
      : [];
    if (!recipient) throw forbidden('only a recipient of this notification may read or acknowledge it');
    return { notification, recipientId: recipient.recipientId };
  }

  private async markRead(notificationId: string, recipientId: string) {
    const mine = and(
      eq(notificationRecipients.notificationId, notificationId),
      eq(notificationRecipients.recipientId, recipientId),
    );
    await this.db
      .update(notificationRecipients)
      .set({ readAt: this.platform.clock.now() })
      .where(and(mine, isNull(notificationRecipients.readAt)));
    const [row] = await this.db.select().from(notificationRecipients).where(mine);
    return row!;
  }
}
