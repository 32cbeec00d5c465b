/** TypeBox schemas of the /api/projects routes: they validate, serialise and document (/docs) the same shapes. */
import { type TSchema, Type } from 'typebox';
import { Offset, StringEnum } from '../../platform/http/schema-types.js';
import { DELIVERY_CELLS } from '../agents/index.js';
import { GIT_PROVIDERS } from './git-url.js';
import { MAX_AGENT_NETWORK_ALLOW } from './rules.js';

export const TAGS = ['projects'];

const Nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });
const Timestamp = Type.String({ format: 'date-time' });
const Command = (what: string) =>
  Nullable(
    Type.String({ maxLength: 4000 }),
    `${what}; run by the engines in the repository. Empty or null = none.`,
  );

const Rung = Type.Object(
  {
    name: Type.String({ maxLength: 50, description: 'Rung name, e.g. `dev`, `staging`, `prod`.' }),
    branch: Type.String({ maxLength: 200, description: 'The rung’s branch; unique within the ladder.' }),
  },
  { additionalProperties: false },
);

const Slug = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[a-z0-9-]+$',
  description: 'Unique handle: 1–50 of a-z, 0-9 and -.',
});
const Name = Type.String({ minLength: 1, maxLength: 100 });
const GitUrl = Type.String({
  minLength: 1,
  maxLength: 500,
  description:
    'https://host/owner/repo.git, git@host:owner/repo.git, ssh://…, or a local bare repository as file:///path or ' +
    '/path. No credentials in the URL: use `git_token`.',
});
const GitToken = Nullable(
  Type.String({ maxLength: 1000 }),
  'Write-only: stored encrypted, never returned (see `has_git_token`). On update: null or absent keeps it, "" ' +
    'clears it, a value replaces it.',
);

const AGENT_NETWORK_ALLOW_DESCRIPTION =
  'Hosts the agents of this project may reach through the egress proxy besides their model: package ' +
  'registries and the like (`registry.npmjs.org`, `pypi.org`, `files.pythonhosted.org`), added to the ' +
  "operator's global list. Each entry is a host name, an address (IPv6 in brackets), or `*.` and a domain " +
  '(every name under it), each optionally with `:port` — e.g. `registry.npmjs.org`, `*.pythonhosted.org`, ' +
  '`203.0.113.7:8443`, `[2001:db8::1]:443`. No scheme, path, credentials or CIDR range: each such entry is a ' +
  `422 naming it and why. At most ${MAX_AGENT_NETWORK_ALLOW} entries; stored trimmed, without repeats, in the ` +
  'order given. [] = none. A listed name that resolves to a loopback, private or link-local address ' +
  'is still refused unless that address is listed too.';

/** The optional settings of create and update. */
const settings = {
  git_provider: Type.Optional(
    Nullable(
      StringEnum(GIT_PROVIDERS),
      'Null = inferred from the URL (github.com → github, local path → local).',
    ),
  ),
  forge_api_url: Type.Optional(
    Nullable(
      Type.String({ maxLength: 500 }),
      'REST base URL of the forge (GitHub Enterprise, a Gitea host); https (http only on loopback). Null = default.',
    ),
  ),
  default_branch: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Default `main`.' }),
  ),
  protected_branches: Type.Optional(
    Nullable(
      Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 }),
      'Branches agents never push to directly; null (or absent on create) = just the default branch.',
    ),
  ),
  environments: Type.Optional(
    Nullable(
      Type.Array(Rung, { maxItems: 10 }),
      'Environment ladder, head (PR target) first, prod (release target) last; at least two rungs, non-empty ' +
        'unique names and branches. Empty or null = no ladder (single branch).',
    ),
  ),
  assigned_cell: Type.Optional(
    Nullable(StringEnum(DELIVERY_CELLS), 'The delivery cell that works on this project; null = org-level.'),
  ),
  test_command: Type.Optional(Command('Test command')),
  lint_command: Type.Optional(Command('Lint command')),
  typecheck_command: Type.Optional(Command('Type-check command')),
  build_command: Type.Optional(Command('Build command')),
  quality_command: Type.Optional(
    Command('Fast pre-submit quality gate (replaces lint + type-check when set)'),
  ),
  ci_watch_enabled: Type.Optional(
    Type.Boolean({ description: 'Opt in to multi-repo CI-watch (default false).' }),
  ),
  ci_watch_workflow: Type.Optional(
    Nullable(
      Type.String({ maxLength: 300 }),
      'Workflow file that scopes the CI signal; null resets to `ci.yml`.',
    ),
  ),
  dep_update_command: Type.Optional(
    Command('Lockfile refresh command for the dependency-update bot (null = the bot opens nothing)'),
  ),
  dep_update_paths: Type.Optional(
    Nullable(
      Type.String({ maxLength: 2000 }),
      'Comma-separated lockfile paths, relative, without `..`; null = inferred from the package manager.',
    ),
  ),
  agent_network_allow: Type.Optional(
    Type.Array(Type.String({ maxLength: 300 }), {
      maxItems: MAX_AGENT_NETWORK_ALLOW,
      description: AGENT_NETWORK_ALLOW_DESCRIPTION,
    }),
  ),
  monthly_budget_usd: Type.Optional(
    Nullable(
      Type.Number({ minimum: 0.01, maximum: 9_999_999_999.99 }),
      'Monthly budget in USD (> 0); null = none.',
    ),
  ),
  is_active: Type.Optional(
    Type.Boolean({ description: 'Inactive projects are left out of lists by default.' }),
  ),
  git_token: Type.Optional(GitToken),
};

export const CreateProjectBody = Type.Object(
  { slug: Slug, name: Name, git_url: GitUrl, ...settings },
  { additionalProperties: false },
);

export const UpdateProjectBody = Type.Object(
  {
    slug: Type.Optional(Slug),
    name: Type.Optional(Name),
    git_url: Type.Optional(GitUrl),
    ...settings,
  },
  { additionalProperties: false, description: 'Only the fields present change; an explicit null clears.' },
);

export const ProjectParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: 'Project UUID or slug.' }),
});

export const ListProjectsQuery = Type.Object({
  cell: Type.Optional(StringEnum(DELIVERY_CELLS, { description: 'Only projects assigned to this cell.' })),
  active_only: Type.Optional(Type.Boolean({ default: true, description: 'Leave inactive projects out.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  offset: Type.Optional(Offset()),
});

export const ProjectView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String(),
    name: Type.String(),
    git_url: Type.String(),
    git_provider: Type.Union([StringEnum(GIT_PROVIDERS), Type.Null()], { description: 'As configured.' }),
    resolved_provider: Type.Union([StringEnum(GIT_PROVIDERS), Type.Null()], {
      description: 'The provider in force: the configured one, else inferred from the URL; null = unknown.',
    }),
    forge_api_url: Type.Union([Type.String(), Type.Null()]),
    default_branch: Type.String(),
    protected_branches: Type.Array(Type.String()),
    environments: Type.Union([Type.Array(Rung), Type.Null()]),
    assigned_cell: Type.Union([Type.String(), Type.Null()]),
    test_command: Type.Union([Type.String(), Type.Null()]),
    lint_command: Type.Union([Type.String(), Type.Null()]),
    typecheck_command: Type.Union([Type.String(), Type.Null()]),
    build_command: Type.Union([Type.String(), Type.Null()]),
    quality_command: Type.Union([Type.String(), Type.Null()]),
    ci_watch_enabled: Type.Boolean(),
    ci_watch_workflow: Type.String(),
    dep_update_command: Type.Union([Type.String(), Type.Null()]),
    dep_update_paths: Type.Union([Type.String(), Type.Null()]),
    agent_network_allow: Type.Array(Type.String(), {
      description: 'Hosts the agents of this project may reach besides their model; [] = none.',
    }),
    monthly_budget_usd: Type.Union([Type.Number(), Type.Null()]),
    has_git_token: Type.Boolean({
      description: 'Whether a git token is stored; the token itself is never returned.',
    }),
    is_active: Type.Boolean(),
    created_by: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: 'A project: repository, commands, engine opt-ins and budget.' },
);

export const ProjectsList = Type.Object({
  projects: Type.Array(ProjectView),
  total: Type.Integer({ description: 'Matching projects before limit/offset.' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
