/** TypeBox schemas of the /api/orchestrator dispatch routes: they validate, serialise and document (/docs). */
import { Type } from 'typebox';

export const TAGS = ['orchestrator'];

/** Longest prompt a manual spawn may give. */
export const PROMPT_MAX = 20_000;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const AgentParams = Type.Object(
  { agent_id: Type.String({ minLength: 1, maxLength: 100, description: 'The agent, by UUID or slug.' }) },
  { additionalProperties: false },
);

export const SpawnBody = Type.Object(
  {
    task_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'The task to work on (full 36-character UUID).' }),
    ),
    prompt: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: PROMPT_MAX,
        description: 'The prompt; default a short one naming the task and the first gateway verb.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const StopBody = Type.Object(
  {
    graceful: Type.Boolean({
      description: 'true: SIGTERM, then SIGKILL after the kill grace. false: SIGKILL at once.',
    }),
  },
  { additionalProperties: false },
);

export const RunningAgentView = Type.Object(
  {
    agent_id: Type.String({ format: 'uuid' }),
    agent_slug: Type.String(),
    role: Type.String(),
    team: Nullable(Type.String(), 'Null for an org-wide agent.'),
    task_id: Nullable(Type.String({ format: 'uuid' }), 'The task it was spawned for.'),
    run_id: Type.String({ format: 'uuid', description: 'Its run (transcript under /api/stream).' }),
    runtime: Type.String({ description: '`process` or `scripted`.' }),
    provider: Type.String({ description: 'The agent CLI, e.g. `claude`.' }),
    model: Nullable(Type.String(), 'The model asked for; null for the CLI’s default.'),
    pid: Nullable(Type.Integer(), 'OS process id (process runtime).'),
    started_at: Type.String({ format: 'date-time' }),
    waiting: Nullable(
      Type.Object(
        {
          since: Type.String({ format: 'date-time' }),
          detail: Nullable(Type.String(), 'What it waits for.'),
        },
        { additionalProperties: false },
      ),
      'Set while the agent waits.',
    ),
  },
  { additionalProperties: false },
);

export const RunningAgentsView = Type.Object(
  {
    agents: Type.Array(RunningAgentView, {
      description: 'The agents running on the replica that answered.',
    }),
  },
  { additionalProperties: false },
);

export const SpawnedView = Type.Object(
  {
    already_running: Type.Boolean({ description: 'Always false here; a running agent answers 409.' }),
    run: RunningAgentView,
  },
  { additionalProperties: false },
);

export const ExitView = Type.Object(
  {
    agent_id: Type.String({ format: 'uuid' }),
    run_id: Type.String({ format: 'uuid' }),
    outcome: Type.String({
      description:
        '`stopped` (ended within the grace), `killed` (SIGKILL), `exited` or `failed` (ended by itself).',
    }),
    exit_code: Nullable(Type.Integer(), 'Exit code when it exited by itself.'),
    signal: Nullable(Type.String(), 'The signal that ended it, e.g. `SIGTERM`.'),
    detail: Type.String({ description: 'How it ended, in one line.' }),
    ended_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

const Spawned = Type.Object(
  {
    agent_id: Type.String({ format: 'uuid' }),
    agent_slug: Type.String(),
    task_id: Type.String({ format: 'uuid' }),
    kind: Type.String({
      description:
        'Why: `owner` (its own work), `closure` (its subtasks are done), `develop`, `plan`, `qa`, `docs`, `pr_gate`, `pm_review`.',
    }),
    run_id: Type.String({ format: 'uuid' }),
  },
  { additionalProperties: false },
);

const PassView = Type.Object(
  {
    started_at: Type.String({ format: 'date-time' }),
    finished_at: Type.String({ format: 'date-time' }),
    considered: Type.Integer({ description: 'Open tasks the pass looked at.' }),
    spawned: Type.Array(Spawned),
    skipped: Type.Array(
      Type.Object({ task_id: Type.String(), reason: Type.String() }, { additionalProperties: false }),
      { description: 'Why tasks were left alone (the first 100).' },
    ),
    skipped_count: Type.Integer(),
    stalled: Type.Array(Type.String(), { description: 'Tasks the respawn breaker gave up on in this pass.' }),
    unstalled: Type.Array(Type.String(), {
      description: 'Stalled tasks that progressed and are dispatched again.',
    }),
    errors: Type.Array(
      Type.Object(
        {
          task_id: Type.String(),
          agent_id: Nullable(Type.String(), 'The agent, if any.'),
          message: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
    aborted: Nullable(Type.String(), 'Why the pass stopped early (a kill pause).'),
  },
  { additionalProperties: false },
);

const LoopReport = Nullable(
  Type.Object(
    { at: Type.String({ format: 'date-time' }), report: Type.Unknown() },
    { additionalProperties: false },
  ),
  'Null until the loop has run on this replica.',
);

export const DispatcherView = Type.Object(
  {
    enabled: Type.Boolean({ description: 'The dispatch loop runs (the reaper and budget sweep always do).' }),
    runtime: Type.String(),
    provider: Type.String(),
    interval_seconds: Type.Number(),
    respawn_limit: Type.Integer({ description: 'Spawns without progress before a task is stalled.' }),
    stale_claim_seconds: Type.Number(),
    kill_grace_seconds: Type.Number(),
    held: Nullable(
      Type.Object({ reason: Type.String(), kill: Type.Boolean() }, { additionalProperties: false }),
      'Why the dispatcher is held now (a maintenance pause of `dispatch`), or null.',
    ),
    wake_count: Type.Integer({ description: 'Wakes (task transitions, agent runs ending) since start.' }),
    passes: Type.Integer({ description: 'Passes run on this replica since start.' }),
    last_pass: Nullable(PassView, 'The last pass on this replica; null before the first.'),
    held_agents: Type.Array(
      Type.Object(
        {
          agent_id: Type.String({ format: 'uuid' }),
          until: Type.String({ format: 'date-time' }),
          why: Type.String({ description: '`stopped_by_ceo` or `spawn_failed`.' }),
        },
        { additionalProperties: false },
      ),
    ),
    stalled_tasks: Type.Array(
      Type.Object(
        {
          task_id: Type.String({ format: 'uuid' }),
          agent_id: Nullable(Type.String({ format: 'uuid' }), 'The agent of the last spawn.'),
          spawns: Type.Integer(),
          stalled_at: Type.String({ format: 'date-time' }),
          reason: Nullable(Type.String(), 'Why it was given up on.'),
        },
        { additionalProperties: false },
      ),
    ),
    last_reaper_pass: LoopReport,
    last_budget_sweep: LoopReport,
  },
  { additionalProperties: false },
);
