/** TypeBox schemas of the /api/stream routes: they validate, serialise and document (/docs). */
import { Type } from 'typebox';
import { QueryInteger, StringEnum } from '../../platform/http/schema-types.js';
import { TRANSCRIPT_LIMITS } from './transcript-service.js';

export const TAGS = ['stream'];

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const AgentParams = Type.Object(
  { agent_id: Type.String({ minLength: 1, maxLength: 100, description: 'The agent, by UUID or slug.' }) },
  { additionalProperties: false },
);

export const RunParams = Type.Object(
  {
    agent_id: Type.String({ minLength: 1, maxLength: 100, description: 'The agent, by UUID or slug.' }),
    run_id: Type.String({
      format: 'uuid',
      description: 'The run’s UUID (from the run list or a live frame).',
    }),
  },
  { additionalProperties: false },
);

export const RunsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TRANSCRIPT_LIMITS.runsMax,
        default: TRANSCRIPT_LIMITS.runsDefault,
      }),
    ),
  },
  { additionalProperties: false },
);

export const TranscriptQuery = Type.Object(
  {
    after_seq: Type.Optional(
      QueryInteger({ minimum: 0, default: 0, description: 'Only chunks after this sequence number.' }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TRANSCRIPT_LIMITS.chunksMax,
        default: TRANSCRIPT_LIMITS.chunksDefault,
      }),
    ),
  },
  { additionalProperties: false },
);

const RunStatus = StringEnum(['running', 'exited', 'failed', 'stopped', 'killed', 'lost'], {
  description:
    '`running`; or how it ended: `exited` (by itself, code 0), `failed` (non-zero code, an unsent signal, ' +
    'or it could not start), `stopped` (SIGTERM within the grace), `killed` (SIGKILL), `lost` (its server ' +
    'went away without recording the end).',
});

export const RunView = Type.Object(
  {
    run_id: Type.String({ format: 'uuid' }),
    agent_id: Type.String({ format: 'uuid' }),
    task_id: Nullable(Type.String({ format: 'uuid' }), 'The task the run was about.'),
    runtime: StringEnum(['process', 'scripted'], {
      description: '`process` (an agent CLI) or `scripted` (the built-in simulation).',
    }),
    provider: Type.String({ description: 'The agent CLI or scripted program, e.g. `claude`.' }),
    model: Nullable(Type.String(), 'The model asked for; null for the CLI’s default.'),
    pid: Nullable(Type.Integer(), 'OS process id of the agent process (process runtime).'),
    status: RunStatus,
    started_at: Type.String({ format: 'date-time' }),
    ended_at: Nullable(Type.String({ format: 'date-time' }), 'Null while running.'),
    exit_code: Nullable(Type.Integer(), 'Exit code when it exited by itself.'),
    signal: Nullable(Type.String(), 'The signal that ended it, e.g. `SIGKILL`.'),
    detail: Nullable(Type.String(), 'Why it ended, in one line.'),
    transcript_bytes: Type.Integer({ description: 'UTF-8 bytes of output kept.' }),
    dropped_bytes: Type.Integer({
      description: 'Output bytes not kept once the transcript reached its cap.',
    }),
    truncated: Type.Boolean({
      description: 'The transcript reached its cap; later output was streamed only.',
    }),
    blocked: Type.Array(
      Type.Object(
        {
          host: Type.String({ description: 'The host name or address the run tried to reach.' }),
          port: Type.Integer({ minimum: 1, maximum: 65_535 }),
          reason: Type.String({
            description:
              'Why it was refused, e.g. `not on the allowlist`, `resolves to 10.0.0.5, a private address`.',
          }),
          count: Type.Integer({ minimum: 1, description: 'How often the run tried it.' }),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Destinations the run’s network fence refused, each distinct one once, in the order first tried ' +
          '(filled in when the run ends; the transcript has each as it happens).',
      },
    ),
    blocked_total: Type.Integer({ minimum: 0, description: 'Every refusal of the run, distinct or not.' }),
    limit_hit: Nullable(
      StringEnum(['processes', 'memory', 'wall_time']),
      'The run limit that stopped the run (GAFFER_AGENT_MAX_PROCESSES, GAFFER_AGENT_MEMORY_MB, GAFFER_AGENT_MAX_RUN_SECONDS); null when none did.',
    ),
  },
  { additionalProperties: false },
);

export const RunListView = Type.Object(
  {
    agent_id: Type.String({ format: 'uuid' }),
    agent_slug: Type.String(),
    runs: Type.Array(RunView, { description: 'Newest first.' }),
  },
  { additionalProperties: false },
);

export const TranscriptPageView = Type.Object(
  {
    run: RunView,
    chunks: Type.Array(
      Type.Object(
        {
          seq: Type.Integer({ minimum: 1, description: 'Position in the run, from 1.' }),
          stream: StringEnum(['stdout', 'stderr', 'system'], {
            description: '`system` marks the runtime’s own notes: truncation, how the run ended.',
          }),
          text: Type.String({ description: 'One or more whole lines of output.' }),
          at: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
    ),
    next_after_seq: Type.Integer({ minimum: 0, description: 'Send as `after_seq` to continue.' }),
    has_more: Type.Boolean({ description: 'A full page came back; more may follow.' }),
  },
  { additionalProperties: false },
);
