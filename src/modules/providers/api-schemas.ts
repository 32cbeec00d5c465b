import { type TSchema, Type } from 'typebox';
import { ROLES } from '../../platform/http/auth/identity.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import { PROVIDER_KINDS } from './service.js';

export const TAGS = ['providers'];

const Nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

const Name = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z0-9][a-z0-9_.-]*$',
  description: 'Unique name.',
});
const Kind = StringEnum(PROVIDER_KINDS, {
  description: 'Wire format: OpenAI Chat Completions, Anthropic Messages or the Gemini API.',
});
const BaseUrl = Nullable(
  Type.String({ minLength: 1, maxLength: 2000, pattern: '^https?://' }),
  'openai: up to and including /v1; anthropic and gemini: the host. null = the official endpoint.',
);
const Model = Type.String({ minLength: 1, maxLength: 200 });
const ApiKey = Nullable(
  Type.String({ minLength: 1, maxLength: 4000 }),
  'Write-only: a value sets the key, null clears it. Never returned.',
);

export const ProviderView = Type.Object({
  name: Type.String(),
  kind: Kind,
  base_url: Type.Union([Type.String(), Type.Null()]),
  default_model: Type.String(),
  enabled: Type.Boolean(),
  api_key_set: Type.Boolean({ description: 'Whether a key is stored; the key itself is never returned.' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const ProvidersList = Type.Object({ providers: Type.Array(ProviderView) });

export const ProviderParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) });

export const CreateProviderBody = Type.Object(
  {
    name: Name,
    kind: Kind,
    base_url: Type.Optional(BaseUrl),
    default_model: Model,
    enabled: Type.Optional(Type.Boolean()),
    api_key: Type.Optional(ApiKey),
  },
  { additionalProperties: false },
);

export const UpdateProviderBody = Type.Object(
  {
    kind: Type.Optional(Kind),
    base_url: Type.Optional(BaseUrl),
    default_model: Type.Optional(Model),
    enabled: Type.Optional(Type.Boolean()),
    api_key: Type.Optional(ApiKey),
  },
  { additionalProperties: false },
);

const RouteIn = Type.Object(
  {
    provider: Type.String({ minLength: 1, maxLength: 64 }),
    model: Type.Optional(Nullable(Model, "null = the provider's default model.")),
  },
  { additionalProperties: false },
);
const RouteOrNull = Type.Union([RouteIn, Type.Null()]);

export const RoutingBody = Type.Object(
  {
    global: Type.Optional(RouteOrNull),
    roles: Type.Optional(Type.Record(Type.String(), RouteOrNull)),
    agents: Type.Optional(
      Type.Record(Type.String(), RouteOrNull, { description: 'Keyed by agent slug or UUID.' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Sets the routes named (null removes one); routes not named stay as they are.',
  },
);

const RouteOut = Type.Object({ provider: Type.String(), model: Type.Union([Type.String(), Type.Null()]) });

export const RoutingView = Type.Object({
  global: Type.Union([RouteOut, Type.Null()]),
  roles: Type.Record(Type.String(), RouteOut),
  agents: Type.Record(Type.String(), RouteOut, { description: 'Keyed by agent UUID.' }),
});

export const ResolveQuery = Type.Object({ agent: Type.String({ minLength: 1, maxLength: 100 }) });

export const ResolveView = Type.Object({
  agent: Type.Object({ id: Type.String(), slug: Type.String(), role: StringEnum(ROLES) }),
  source: Type.Union([StringEnum(['agent', 'role', 'global']), Type.Null()], {
    description: 'Which route applied (agent → role → global); null when none does.',
  }),
  provider: Type.Union([Type.String(), Type.Null()]),
  kind: Type.Union([Kind, Type.Null()]),
  model: Type.Union([Type.String(), Type.Null()]),
});

export const TestQuery = Type.Object({
  mode: Type.Optional(
    StringEnum(['models', 'completion'], { description: 'models (default) or a one-token completion.' }),
  ),
});

export const ProbeView = Type.Object({
  ok: Type.Boolean(),
  mode: StringEnum(['models', 'completion']),
  model_count: Type.Optional(Type.Integer()),
  model_listed: Type.Optional(Type.Boolean()),
  error: Type.Optional(
    Type.Object({
      kind: Type.String(),
      message: Type.String(),
      status: Type.Optional(Type.Integer()),
      retry_after_seconds: Type.Optional(Type.Number()),
    }),
  ),
});
