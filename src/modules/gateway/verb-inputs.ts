/**
 * The JSON input of every do-tool, as TypeBox schemas, and the lookup of every gateway verb's
 * (each defined beside its handler, verbs/*.ts; per route from the lifecycle module's VERBS).
 * One source for three uses: the gateway validates bodies against them
 * (an under-filled body is an `incomplete_input` envelope whose `field_hints` are the fields'
 * descriptions), the OpenAPI docs show them, and the MCP tool server registers its tools with them.
 *
 * Outside face (kept stable for the MCP tool server): `verbInputSchema(route, verb)`,
 * `doToolInputSchema(tool)`, `DO_TOOLS`, `DO_TOOL_ROLES`, `doToolsFor(role)`.
 */
import { type Static, type TObject, Type } from 'typebox';
import type { GatewayRoute, Role } from '../lifecycle/index.js';
import { Input, INPUT_LIMITS as L, Strings, TaskId, Text, taskOnly } from './input-fields.js';
import { verbEntry } from './verbs/index.js';

/** The input schema of `verb` on `route` (from the verb's definition); undefined when the route has no such verb. */
export const verbInputSchema = (route: GatewayRoute, verb: string): TObject | undefined =>
  verbEntry(route, verb)?.input;

export const DO_TOOLS = [
  'commit',
  'note',
  'dm',
  'read_a2a',
  'read_task',
  'evidence',
  'report_usage',
] as const;
export type DoTool = (typeof DO_TOOLS)[number];
export const isDoTool = (value: unknown): value is DoTool =>
  typeof value === 'string' && (DO_TOOLS as readonly string[]).includes(value);

export const NOTE_SCOPES = ['note', 'decision', 'reflect', 'learning', 'struggle', 'handoff'] as const;

const DO_TOOL_INPUTS = {
  commit: Input(
    {
      task_id: TaskId('The task you hold the claim of; the commit lands on its branch.'),
      message: Text(
        L.commitSubjectMin,
        L.commitMessageMax,
        `The commit message: a subject of at least ${L.commitSubjectMin} characters (prefixed with [id8] for you), then an optional body.`,
      ),
      files: Type.Optional(
        Strings('Paths to commit (default: every change in the worktree).', 1, L.filesMax),
      ),
    },
    'Commit your work on the task branch.',
  ),
  note: Input(
    {
      task_id: TaskId(),
      text: Text(1, L.noteMax, 'The note.'),
      scope: Type.Optional(
        Type.Enum([...NOTE_SCOPES], {
          default: 'note',
          description: `${NOTE_SCOPES.join(' | ')} (handoff writes your role’s section of the task notes).`,
        }),
      ),
    },
    'Write a note on a task (journal entry, decision, learning, handoff).',
  ),
  dm: Input(
    {
      to: Text(1, 100, 'The slug or UUID of the agent to write to.'),
      body: Text(1, L.dmMax, 'The message.'),
      task_id: Type.Optional(TaskId('The task the conversation is about, if any.')),
      requires_response: Type.Optional(
        Type.Boolean({ default: false, description: 'You wait for an answer.' }),
      ),
    },
    'Send a direct message to another agent (agent-to-agent conversation).',
  ),
  read_a2a: Input(
    {
      conversation_id: Type.Optional(
        Type.String({
          format: 'uuid',
          description: 'One conversation; default: every one with unread messages.',
        }),
      ),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Messages per conversation.' }),
      ),
    },
    'Read your direct messages (marks them read).',
  ),
  read_task: taskOnly(
    'Read a task of your team as it stands now: its status, who holds it, its acceptance criteria, branch and pull request, and its subtasks.',
  ),
  evidence: taskOnly('The evidence of a task: diff summary, commits, files changed, findings.'),
  report_usage: Input(
    {
      model: Text(1, 200, 'The model that did the work (priced from the price table).'),
      provider: Type.Optional(Text(1, 100, 'Your agent CLI or model provider (claude, codex, ollama, …).')),
      input_tokens: Type.Integer({
        minimum: 0,
        maximum: 2_000_000_000,
        description: 'Prompt tokens at the full input price.',
      }),
      output_tokens: Type.Integer({ minimum: 0, maximum: 2_000_000_000, description: 'Generated tokens.' }),
      cache_read_tokens: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 2_000_000_000, description: 'Prompt tokens read from a cache.' }),
      ),
      cache_write_tokens: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 2_000_000_000,
          description: 'Prompt tokens written to a cache.',
        }),
      ),
      cost_usd: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: 10_000_000,
          description: 'What it cost, if you know (default: priced).',
        }),
      ),
      task_id: Type.Optional(TaskId('The task the tokens were spent on, if any.')),
    },
    'Report tokens you spent that Gaffer did not see (your own model calls); they go to the usage ledger.',
  ),
} satisfies Record<DoTool, TObject>;

/** The checked input of a do-tool, as its handler receives it. */
export type DoToolInput<T extends DoTool> = Static<(typeof DO_TOOL_INPUTS)[T]>;

/** The input schema of a do-tool (without the `tool` field the request also carries). */
export const doToolInputSchema = (tool: DoTool): TObject => DO_TOOL_INPUTS[tool];

/** Roles that may use a do-tool; absent means every agent role. */
export const DO_TOOL_ROLES: Readonly<Partial<Record<DoTool, readonly Role[]>>> = {
  commit: ['developer', 'documenter'],
};

/** The do-tools `role` may use. */
export const doToolsFor = (role: Role): DoTool[] =>
  DO_TOOLS.filter((tool) => DO_TOOL_ROLES[tool]?.includes(role) ?? true);
