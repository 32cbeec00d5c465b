/**
 * TypeBox schemas of the gateway's HTTP face: the envelope every verb and do-tool answers with
 * (it serialises and documents the same shape), the path parameters, and the do-tool body.
 */
import { type Static, Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { TASK_STATUSES } from '../lifecycle/index.js';
import { FLAVORS } from './envelope.js';
import { describe } from './input-fields.js';
import { DO_TOOLS, doToolInputSchema } from './verb-inputs.js';

export const TAGS = ['agent gateway'];

const FreeObject = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

export const GatewayEnvelope = Type.Object(
  {
    ok: Type.Boolean({ description: 'true for a success, false for a rejection.' }),
    status: Type.String({
      description: 'ok | idle | idle_with_unread | noop on success; rejected on a rejection.',
    }),
    task_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The task the call was about, if any.',
    }),
    next: Type.Union([Type.String(), Type.Null()], { description: 'The verb to call next.' }),
    evidence: FreeObject('Evidence block ({} when none): diff summary, commits, files changed, findings.'),
    context_briefing: FreeObject(
      'Unread A2A, pending notifications, and (on claims and work lookups) the task hand-off.',
    ),
    current_state: Type.Union([StringEnum([...TASK_STATUSES]), Type.Null()], {
      description: 'The task’s state after the call.',
    }),
    valid_next_verbs: Type.Array(Type.String(), {
      description: 'The verbs of your role valid from current_state (preconditions not evaluated).',
    }),
    error: Type.Union([StringEnum([...FLAVORS]), Type.Null()], {
      description: 'The error flavor; null on success.',
    }),
    message: Type.Optional(Type.String({ description: 'Rejection: what went wrong, in words.' })),
    remediate: Type.Optional(Type.String({ description: 'Rejection: the concrete next step.' })),
    reason: Type.Optional(Type.String({ description: 'Rejection: stable code of the underlying refusal.' })),
    missing: Type.Optional(
      Type.Array(Type.String(), {
        description: 'tracing_gap: missing artifacts; incomplete_input: fields to fill.',
      }),
    ),
    field_hints: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'incomplete_input: what each missing field needs.',
      }),
    ),
    details: Type.Optional(
      Type.Unknown({ description: 'Rejection: structured facts (blockers, owners, problems).' }),
    ),
    inner: Type.Optional(
      Type.Unknown({
        description: 'circuit_open: the rejection that tripped the breaker (error, message, remediate…).',
      }),
    ),
    warning: Type.Optional(
      Type.String({ description: 'The change committed, but a best-effort side effect failed.' }),
    ),
    data: Type.Optional(
      FreeObject('Verb-specific result (the subtask created, the commit, the messages read…).'),
    ),
    correlation_id: Type.String(),
  },
  { description: 'The gateway envelope: every verb answers HTTP 200 with one, success or rejection.' },
);
export type GatewayEnvelope = Static<typeof GatewayEnvelope>;

export const FlowParams = Type.Object({
  route: Type.String({
    description: 'The role route: developer, qa, documenter, cell_pm, main_pm, board, auditor, pr_reviewer.',
  }),
  verb: Type.String({ description: 'The intent verb.' }),
});

export const AnyBody = Type.Record(Type.String(), Type.Unknown(), { description: 'The verb’s input.' });

/** The do-tool body as documented: `{tool, ...}` with each tool's fields. */
export const DoToolBody = Type.Union(
  DO_TOOLS.map((tool) =>
    Type.Object(
      { tool: Type.Literal(tool), ...doToolInputSchema(tool).properties },
      { description: describe(doToolInputSchema(tool)) },
    ),
  ),
  { description: 'The content tool to run, with its input.' },
);
