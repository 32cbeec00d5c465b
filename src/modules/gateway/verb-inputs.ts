/**
 * The JSON input of every gateway verb (per route, from the lifecycle module's VERBS) and of every
 * do-tool, as TypeBox schemas. One source for three uses: the gateway validates bodies against them
 * (an under-filled body is an `incomplete_input` envelope whose `field_hints` are the fields'
 * descriptions), the OpenAPI docs show them, and the MCP tool server registers its tools with them.
 *
 * Outside face (kept stable for the MCP tool server): `verbInputSchema(route, verb)`,
 * `doToolInputSchema(tool)`, `DO_TOOLS`, `DO_TOOL_ROLES`, `doToolsFor(role)`.
 */
import { type Static, type TObject, Type } from 'typebox';
import { TEAMS } from '../../platform/http/auth/identity.js';
import { findVerb, type GatewayRoute, type Role } from '../lifecycle/index.js';
import { COMPLEXITIES, TASK_NATURES, TASK_TYPES } from '../tasks/index.js';
import {
  Findings,
  Input,
  INPUT_LIMITS as L,
  Notes,
  Reason,
  ResolvedFindings,
  Strings,
  TaskId,
  Text,
} from './input-fields.js';

const taskOnly = (description: string) => Input({ task_id: TaskId() }, description);
const nothing = (description: string) => Input({}, description);

const Step = Type.Object({
  title: Text(1, L.titleMax, 'A short name for the step.'),
  description: Text(
    L.stepDescriptionMin,
    L.stepDescriptionMax,
    `What the step does and how you will know it is done (${L.stepDescriptionMin}–${L.stepDescriptionMax} characters).`,
  ),
});

const Risk = Type.Object({
  risk: Text(1, L.listItemMax, 'What could go wrong.'),
  mitigation: Text(1, L.listItemMax, 'What you will do about it.'),
});

const SubTask = Type.Object({
  title: Text(1, L.titleMax, 'The subtask’s title.'),
  description: Text(
    L.stepDescriptionMin,
    L.stepDescriptionMax,
    `What the subtask delivers (${L.stepDescriptionMin}–${L.stepDescriptionMax} characters).`,
  ),
});

const CriterionVerified = Type.Object({
  criterion: Text(1, 500, 'The acceptance-criterion id or its exact text.'),
  evidence: Text(L.evidenceMin, 2_000, `How you verified it (at least ${L.evidenceMin} characters).`),
});

/** Inputs by verb name: a name means the same thing on every route that has it. */
const VERB_INPUTS = {
  give_me_work: nothing('No input: the next task for you, or idle.'),
  triage: nothing('No input: the next task to look at, or idle.'),
  triage_all: nothing('No input: the next blocked or awaiting-review task of any team.'),
  i_am_idle: nothing('No input: stop for now.'),
  resume: taskOnly('Resume your paused task.'),
  unclaim: Input(
    {
      task_id: TaskId(),
      reason: Type.Optional(Type.String({ maxLength: 2_000, description: 'Why you give it up.' })),
    },
    'Give the task up; it goes back to its queue.',
  ),
  i_am_blocked: Input(
    {
      task_id: TaskId(),
      reason: Reason(`What blocks you (at least ${L.blockReasonMin} characters).`, L.blockReasonMin),
      blocker_type: Type.Enum(['external', 'internal', 'question', 'dependency'], {
        description: 'external | internal | question | dependency.',
      }),
      what_needed: Text(1, 2_000, 'What would unblock you, and from whom.'),
      reason_kind: Type.Optional(
        Type.Enum(['rate_limited', 'overloaded'], {
          description:
            'Set when your model provider answered 429 (rate_limited) or overloaded: the provider is parked until ' +
            'its window ends, your task stays as it is, and you are started again once it recovers.',
        }),
      ),
      provider: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'With reason_kind: the provider that refused (default: the one you are routed to).',
        }),
      ),
      retry_after_seconds: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 86_400,
          description: "With reason_kind: the provider's Retry-After, in seconds, if it gave one.",
        }),
      ),
    },
    'Report a blocker; the task is escalated one rung up the chain. A provider rate limit (reason_kind) parks the provider instead and leaves the task as it is.',
  ),
  i_will_work_on: Input(
    {
      task_id: TaskId(),
      plan: Text(
        L.planMin,
        L.planMax,
        `Your approach in prose (at least ${L.planMin} characters): what you will change and why.`,
      ),
      steps: Type.Array(Step, {
        minItems: 1,
        maxItems: L.stepsMax,
        description: `The steps in order (1–${L.stepsMax}), each with a title and a ${L.stepDescriptionMin}+ character description.`,
      }),
      technical_considerations: Strings('Technical considerations (at least one).', 1),
      risks: Type.Array(Risk, {
        minItems: 1,
        maxItems: L.listMax,
        description: 'Risks with their mitigation (at least one).',
      }),
      open_questions: Type.Optional(Strings('Questions still open, if any.')),
    },
    'Claim and start a task with a plan (re-entry on your own claim is fine).',
  ),
  open_pr: taskOnly('Push the task branch and open its pull request (idempotent).'),
  i_am_done: Input(
    {
      task_id: TaskId(),
      notes: Notes(
        L.devNotesMin,
        `What you did and how you verified it, for QA (at least ${L.devNotesMin} characters).`,
      ),
      resolved_findings: ResolvedFindings,
    },
    'Submit the work: self-verification, then QA. Needs a commit and an open pull request.',
  ),
  sync_branch: Input(
    {
      task_id: TaskId(),
      stash: Type.Optional(Type.Boolean({ default: false, description: 'Stash uncommitted changes first.' })),
    },
    'Rebase the task branch onto its base.',
  ),
  claim_review: taskOnly('Claim a task for QA review; the evidence comes back inline.'),
  pass: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.qaNotesMin, `Your QA report (at least ${L.qaNotesMin} characters).`),
      criteria_verified: Type.Array(CriterionVerified, {
        minItems: 1,
        maxItems: 50,
        description: 'Every acceptance criterion of the task, each with the evidence you verified it by.',
      }),
    },
    'Pass the work; it goes to the documenter.',
  ),
  fail: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.reasonMin, `Why it fails, in short (at least ${L.reasonMin} characters).`),
      findings: Findings('What is wrong (1–10 findings).'),
    },
    'Fail the work with findings; it goes back to its author.',
  ),
  claim_doc_task: taskOnly('Claim a task for documentation; the evidence comes back inline.'),
  i_documented: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.docNotesMin, `What you documented (at least ${L.docNotesMin} characters).`),
      files: Strings('The documentation files you wrote or changed (at least one).', 1, L.filesMax),
    },
    'The documentation is done; the task goes to PM review.',
  ),
  i_will_plan: Input(
    {
      task_id: TaskId(),
      plan: Text(1, 2_000, 'The plan in one paragraph.'),
      approach: Text(
        L.planMin,
        L.planMax,
        `How the work will be split and why (at least ${L.planMin} characters).`,
      ),
      sub_tasks: Type.Array(SubTask, {
        minItems: 1,
        maxItems: L.subTasksMax,
        description: `The subtasks you will delegate (1–${L.subTasksMax}), each with a ${L.stepDescriptionMin}+ character description.`,
      }),
      risks: Type.Optional(Strings('Risks, if any.')),
    },
    'Claim and start a task with a plan (re-entry on your own claim is fine).',
  ),
  delegate: Input(
    {
      task_id: TaskId('The parent task you own (in progress) the subtask belongs to.'),
      title: Text(1, L.titleMax, 'The subtask’s title.'),
      description: Text(20, 20_000, 'What to do and why (at least 20 characters).'),
      assigned_to: Text(
        1,
        100,
        'The slug or UUID of the agent to do it (a cell PM delegates to its own cell).',
      ),
      team: Type.Optional(
        Type.Enum([...TEAMS], { description: 'The subtask’s team (default: the assignee’s).' }),
      ),
      task_type: Type.Enum([...TASK_TYPES], { description: TASK_TYPES.join(' | ') }),
      nature: Type.Enum([...TASK_NATURES], { description: TASK_NATURES.join(' | ') }),
      complexity: Type.Enum([...COMPLEXITIES], { description: COMPLEXITIES.join(' | ') }),
      acceptance_criteria: Type.Array(Text(1, 200, 'One criterion.'), {
        minItems: 1,
        maxItems: 7,
        description: 'Acceptance criteria of the subtask (1–7).',
      }),
      intends_to_touch: Type.Optional(
        Strings('Path globs the work will touch (required for code subtasks).', 0, 100),
      ),
      covers_parent_criteria: Type.Optional(
        Strings('Ids (or exact texts) of the parent’s criteria this subtask covers.'),
      ),
      project_id: Type.Optional(TaskId('Target repository, when it is not the parent’s.')),
      depends_on: Type.Optional(
        Type.Array(TaskId('A task id.'), { maxItems: 50, description: 'Tasks that must complete first.' }),
      ),
      adds_migration: Type.Optional(Type.Boolean({ description: 'The work adds a database migration.' })),
      touches_shared: Type.Optional(Type.Boolean({ description: 'The work touches shared code.' })),
      priority: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 3, description: '0 is highest (default: the parent’s).' }),
      ),
    },
    'Create a subtask of your in-progress task for a member of your team.',
  ),
  request_changes: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.reasonMin, `What must change, in short (at least ${L.reasonMin} characters).`),
      findings: Findings('What is wrong (1–10 findings).'),
    },
    'Send reviewed work back to its author with findings.',
  ),
  unblock: Input(
    {
      task_id: TaskId(),
      reason: Reason(`How the blocker was resolved (at least ${L.reasonMin} characters).`),
    },
    'Unblock a task: it returns to the state and owner it had before it was blocked (or to the pool).',
  ),
  escalate_up: Input(
    { task_id: TaskId(), reason: Reason(`Why it needs the next rung (at least ${L.reasonMin} characters).`) },
    'Escalate a task one rung up the chain.',
  ),
  declare_coverage: Input(
    {
      task_id: TaskId('The subtask that covers the criteria.'),
      criteria: Strings('Ids (or exact texts) of the parent’s criteria it covers (at least one).', 1),
    },
    'Declare which of its parent’s criteria a subtask covers.',
  ),
  submit_up: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.pmNotesMin, `What the cell delivered (at least ${L.pmNotesMin} characters).`),
      resolved_findings: ResolvedFindings,
    },
    'Open the cell pull request to the root and submit it to the PR gate.',
  ),
  submit_root: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.pmNotesMin, `What the root delivered (at least ${L.pmNotesMin} characters).`),
      resolved_findings: ResolvedFindings,
    },
    'Open the root pull request and submit it to the PR gate.',
  ),
  complete: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.pmNotesMin, `Your review verdict (at least ${L.pmNotesMin} characters).`),
    },
    'Complete a reviewed task (the cell PM merges it; the main PM hands a root to the CEO).',
  ),
  reassign: Input(
    {
      task_id: TaskId(),
      new_assignee: Text(1, 100, 'The slug or UUID of a developer of your cell.'),
    },
    'Hand a claimed or in-progress task to another developer of the cell.',
  ),
  escalate_to_ceo: Input(
    {
      task_id: TaskId(),
      reason: Reason(`Why the CEO should sign it off (at least ${L.reasonMin} characters).`),
    },
    'Escalate to the CEO for sign-off.',
  ),
  waive_finding: Input(
    {
      task_id: TaskId(),
      finding_id: Text(8, 40, 'The finding’s id, or its first 8+ characters.'),
      note: Text(1, 300, 'Why it may be waived.'),
    },
    'Waive a minor or nit finding.',
  ),
  claim_pr_review: taskOnly('Claim and start an inbound pull-request review task.'),
  post_pr_review: Input(
    {
      task_id: TaskId(),
      body: Notes(L.reviewerNotesMin, `The review (at least ${L.reviewerNotesMin} characters).`),
      event: Type.Optional(
        Type.Enum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT'], {
          default: 'REQUEST_CHANGES',
          description: 'APPROVE | REQUEST_CHANGES | COMMENT.',
        }),
      ),
      findings: Type.Optional(Findings('What is wrong, if anything (1–10 findings).')),
    },
    'Post the review and complete the review task.',
  ),
  claim_gate_review: taskOnly('Claim an assembled pull request at the gate; the evidence comes back inline.'),
  pr_pass: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.reviewerNotesMin, `Your gate verdict (at least ${L.reviewerNotesMin} characters).`),
    },
    'Pass the gate; the task goes to PM review.',
  ),
  pr_fail: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.reasonMin, `Why it fails, in short (at least ${L.reasonMin} characters).`),
      findings: Findings('What is wrong (1–10 findings).'),
    },
    'Fail the gate with findings; the task goes back to its author.',
  ),
} satisfies Record<string, TObject>;

export type VerbName = keyof typeof VERB_INPUTS;
/** The checked input of a verb, as its handler receives it (the type of its schema). */
export type VerbInput<N extends VerbName> = Static<(typeof VERB_INPUTS)[N]>;

/** The input schema of `verb` on `route`; undefined when the route has no such verb. */
export function verbInputSchema(route: GatewayRoute, verb: string): TObject | undefined {
  return findVerb(route, verb) ? (VERB_INPUTS as Record<string, TObject>)[verb] : undefined;
}

export const DO_TOOLS = ['commit', 'note', 'dm', 'read_a2a', 'evidence', 'report_usage'] as const;
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
