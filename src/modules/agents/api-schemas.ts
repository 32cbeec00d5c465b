/** TypeBox schemas of the /api/agents routes: they validate, serialise and document (/docs) the same shapes. */
import { Type } from 'typebox';
import { ROLES, TEAMS } from '../../platform/http/auth/identity.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import { AGENT_STATUSES } from './rules.js';

export const TAGS = ['agents'];

const Timestamp = Type.String({ format: 'date-time' });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Model = Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
  description: 'Model the agent runs on; null = the default for its role.',
});
const Description = Type.String({ maxLength: 2000 });
const Capabilities = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 50,
  description: 'Free-form capability tags; duplicates are dropped.',
});
const RoleField = StringEnum(ROLES, { description: 'The agent’s role; `ceo` and `system` cannot be given.' });
const TeamField = Type.Union([StringEnum(TEAMS), Type.Null()], {
  description:
    'Delivery cell or org team; developers, QA, documenters and cell PMs need a delivery cell ' +
    '(backend, frontend, ux_ui); null for org-wide agents. `system` is reserved.',
});

export const AgentParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Agent UUID or slug.' }),
});

export const ListAgentsQuery = Type.Object({
  role: Type.Optional(StringEnum(ROLES)),
  team: Type.Optional(StringEnum(TEAMS)),
  status: Type.Optional(StringEnum(AGENT_STATUSES)),
  include_retired: Type.Optional(
    Type.Boolean({ default: false, description: 'Also list retired agents (left out by default).' }),
  ),
});

export const CreateAgentBody = Type.Object(
  {
    slug: Type.String({
      pattern: '^[a-z0-9-]{2,50}$',
      description: 'Unique handle, 2–50 characters of a-z, 0-9 and -; it cannot be changed later.',
    }),
    name: Name,
    role: RoleField,
    team: TeamField,
    model: Type.Optional(Model),
    description: Type.Optional(Description),
    capabilities: Type.Optional(Capabilities),
  },
  { additionalProperties: false },
);

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Name),
    role: Type.Optional(RoleField),
    team: Type.Optional(TeamField),
    model: Type.Optional(Model),
    description: Type.Optional(Description),
    capabilities: Type.Optional(Capabilities),
  },
  {
    additionalProperties: false,
    description: 'Only the fields present change. Roles change freely except to or from `ceo`/`system`.',
  },
);

export const AgentView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String(),
    name: Type.String(),
    role: StringEnum(ROLES),
    team: Type.Union([Type.String(), Type.Null()]),
    status: StringEnum(AGENT_STATUSES, { description: 'Runtime state: `active` holds a task.' }),
    current_task_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    model: Type.Union([Type.String(), Type.Null()]),
    description: Type.String(),
    capabilities: Type.Array(Type.String()),
    retired: Type.Boolean(),
    retired_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'One member of the roster and its current state.' },
);

export const AgentsList = Type.Object(
  { agents: Type.Array(AgentView) },
  { description: 'The roster, ordered by slug; retired agents only with `include_retired`.' },
);
