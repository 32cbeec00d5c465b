/**
 * What each directive kind carries (its payload schema, which is also the input of the secretary's
 * tool of the same name) and how it is carried out with the CEO's authority.
 */
import { Type } from 'typebox';
import type { Identity } from '../../platform/http/auth/index.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import type { AgentsModule } from '../agents/index.js';
import type { CompanyGoalsModule } from '../company-goals/index.js';
import { CompanyGoalsUpdateSchema } from '../company-goals/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { TasksModule, UpdateTaskInput } from '../tasks/index.js';

export const GATED_KINDS = ['update_charter', 'control_task', 'announce', 'approve_pitch'] as const;
export const DIRECTIVE_KINDS = [...GATED_KINDS, 'relay_message'] as const;
export type DirectiveKind = (typeof DIRECTIVE_KINDS)[number];
export const DIRECTIVE_STATUSES = ['pending', 'executed', 'rejected', 'failed'] as const;
export type DirectiveStatus = (typeof DIRECTIVE_STATUSES)[number];

const Rationale = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'Why, in a sentence or two, for the CEO.',
});
export const TASK_CONTROLS = ['cancel', 'pause', 'resume', 'reprioritize'] as const;

/** Each kind's tool input: the payload plus the rationale. */
export const DIRECTIVE_INPUTS = {
  update_charter: Type.Object(
    { changes: CompanyGoalsUpdateSchema, rationale: Rationale },
    { additionalProperties: false },
  ),
  control_task: Type.Object(
    {
      task_id: Type.String({ minLength: 1, maxLength: 100 }),
      action: StringEnum([...TASK_CONTROLS]),
      priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description: 'For reprioritize.' })),
      rationale: Rationale,
    },
    { additionalProperties: false },
  ),
  announce: Type.Object(
    {
      subject: Type.String({ minLength: 1, maxLength: 200 }),
      body: Type.String({ minLength: 1, maxLength: 10_000 }),
      recipients: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
          minItems: 1,
          maxItems: 100,
          description: 'Agent slugs; the whole active roster when left out.',
        }),
      ),
      priority: Type.Optional(StringEnum(['normal', 'high', 'urgent'])),
      rationale: Rationale,
    },
    { additionalProperties: false },
  ),
  approve_pitch: Type.Object(
    {
      pitch_id: Type.String({ minLength: 1, maxLength: 100 }),
      notes: Type.String({ maxLength: 2000 }),
      rationale: Rationale,
    },
    { additionalProperties: false },
  ),
  relay_message: Type.Object(
    {
      to: Type.String({ minLength: 1, maxLength: 100, description: 'The agent’s slug.' }),
      subject: Type.String({ minLength: 1, maxLength: 200 }),
      text: Type.String({ minLength: 1, maxLength: 10_000 }),
      rationale: Type.Optional(Rationale),
    },
    { additionalProperties: false },
  ),
} as const;

export const DIRECTIVE_DESCRIPTIONS: Record<DirectiveKind, string> = {
  update_charter: 'Propose a change of the company charter (a partial update). Held for the CEO to confirm.',
  control_task: 'Propose to cancel, pause, resume or reprioritize a task. Held for the CEO to confirm.',
  announce: 'Propose an announcement to the agents (a broadcast notification). Held for the CEO to confirm.',
  approve_pitch: 'Propose approving a board pitch, with notes. Held for the CEO to confirm.',
  relay_message: 'Relay a message from the CEO to one agent now (a notification); no confirmation needed.',
};

export interface DirectiveExecutorDeps {
  companyGoals: Pick<CompanyGoalsModule, 'service'>;
  tasks: Pick<TasksModule, 'service'>;
  notifications: Pick<NotificationsModule, 'service'>;
  agents: Pick<AgentsModule, 'service'>;
  /** The pitches module's approval, when it is there. */
  approvePitch?: ((id: string, notes: string, actor: Identity) => Promise<unknown>) | undefined;
}

type Payload = Record<string, unknown>;

const controlChange = (p: Payload): UpdateTaskInput => {
  const reason = String(p.rationale ?? 'secretary directive');
  switch (p.action) {
    case 'cancel':
      return { status: 'cancelled', force: true, reason };
    case 'pause':
      return { status: 'paused', force: true, reason };
    case 'resume':
      return { status: 'pending', force: true, reason };
    default:
      if (typeof p.priority !== 'number') throw new Error('reprioritize needs a priority (0–3)');
      return { priority: p.priority, reason };
  }
};

/** Carries out a directive as the CEO (`identity`); what it did, or throws why it could not. */
export async function executeDirective(
  deps: DirectiveExecutorDeps,
  kind: DirectiveKind,
  payload: Payload,
  identity: Identity,
): Promise<Payload> {
  switch (kind) {
    case 'update_charter': {
      const actor = await deps.agents.service.actorOf(identity).catch(() => null);
      const charter = await deps.companyGoals.service.update(
        payload.changes as Parameters<CompanyGoalsModule['service']['update']>[0],
        actor?.slug ?? identity.id,
      );
      return { updated_at: charter.updated_at };
    }
    case 'control_task': {
      const actor = await deps.tasks.service.actorFor(identity);
      const task = await deps.tasks.service.update(String(payload.task_id), controlChange(payload), actor);
      return { task_id: task.id, status: task.status, priority: task.priority };
    }
    case 'announce': {
      const recipients =
        (payload.recipients as string[] | undefined) ??
        (await deps.agents.service.list())
          .filter((a) => a.role !== 'ceo' && a.role !== 'system')
          .slice(0, 100)
          .map((a) => a.slug);
      const sent = await deps.notifications.service.send(
        {
          type: 'broadcast',
          priority: (payload.priority as 'normal' | 'high' | 'urgent' | undefined) ?? 'normal',
          recipients,
          subject: String(payload.subject),
          body: String(payload.body),
        },
        { id: identity.id, role: identity.role },
      );
      return { notification_id: sent.id, recipients: sent.recipients.length };
    }
    case 'approve_pitch': {
      if (!deps.approvePitch)
        throw new Error('pitch approval is not available: the pitches module is not installed');
      await deps.approvePitch(String(payload.pitch_id), String(payload.notes ?? ''), identity);
      return { pitch_id: String(payload.pitch_id), approved: true };
    }
    case 'relay_message': {
      const sent = await deps.notifications.service.send(
        {
          type: 'mention',
          priority: 'normal',
          recipients: [String(payload.to)],
          subject: String(payload.subject),
          body: String(payload.text),
        },
        { id: identity.id, role: identity.role },
      );
      return { notification_id: sent.id };
    }
  }
}
