/**
 * The intake interviewer as a chat agent: it interviews the CEO about the work in the session's
 * scope until it can propose a task (`propose_task`) or several (`propose_batch`); a proposal is
 * kept on the session as its draft and shown to the CEO, who confirms it (confirm.ts).
 */
import type { Static } from 'typebox';
import type { ChatAgent, SessionRow, ToolOutcome } from '../live-chat/index.js';
import { toolInput } from '../live-chat/index.js';
import { BatchDraft, TaskDraft } from './api-schemas.js';

/** Where a proposal is kept (the session's draft). */
export interface DraftKeeper {
  setDraft(sessionId: string, draft: IntakeDraft | null): Promise<void>;
}

export type TaskDraftInput = Static<typeof TaskDraft>;
export type BatchDraftInput = Static<typeof BatchDraft>;

/** What a session keeps as its proposal. */
export type IntakeDraft = { kind: 'task'; task: TaskDraftInput } | ({ kind: 'batch' } & BatchDraftInput);

const taskInput = toolInput<TaskDraftInput>(TaskDraft);
const batchInput = toolInput<BatchDraftInput>(BatchDraft);

const SYSTEM = `You are the intake interviewer of a software company run by AI agents. The CEO tells you
what they want built or changed; you ask short, concrete questions, one or two at a time, until you
know the goal, the constraints, what done looks like and which team it belongs to (backend, frontend,
ux_ui; board or main_pm for company-level work). Then you call propose_task with a clear title, a
description of at least a few sentences, 1 to 7 testable acceptance criteria, the team and the type
(code, documentation, research, planning, design, administrative). When the request is really several
separate pieces of work, call propose_batch instead. After proposing, tell the CEO in one sentence
that the draft is ready to confirm or edit. Never invent facts about the codebase.`;

function scopeLine(scope: Record<string, unknown>): string {
  if (typeof scope.project_name === 'string') return `The work is for the project "${scope.project_name}".`;
  if (typeof scope.product_name === 'string') return `The work is for the product "${scope.product_name}".`;
  if (Array.isArray(scope.project_names))
    return `The work spans the projects ${scope.project_names.map((n) => `"${n}"`).join(', ')}; give each task the project_id it belongs to (${(scope.project_ids as string[]).join(', ')}).`;
  return '';
}

export function intakeAgent(subject: { id: string; role: string }, store: DraftKeeper): ChatAgent {
  return {
    subject,
    systemPrompt: async (session) => `${SYSTEM}\n\n${scopeLine(session.scope)}`.trim(),
    tools: [
      {
        name: 'propose_task',
        description: 'Propose one task for the CEO to confirm. Use once you know enough.',
        input_schema: taskInput.jsonSchema,
      },
      {
        name: 'propose_batch',
        description: 'Propose several related tasks at once (a batch) for the CEO to confirm.',
        input_schema: batchInput.jsonSchema,
      },
    ],
    async useTool(session: SessionRow, call): Promise<ToolOutcome> {
      if (call.name === 'propose_task') {
        const checked = taskInput.check(call.input);
        if (!checked.ok) return { result: `The draft is not valid: ${checked.problems}`, isError: true };
        const draft: IntakeDraft = { kind: 'task', task: checked.value };
        await store.setDraft(session.id, draft);
        return {
          result: 'The draft is shown to the CEO, who can confirm or edit it.',
          shown: [{ kind: 'draft', data: { task: checked.value } }],
        };
      }
      if (call.name === 'propose_batch') {
        const checked = batchInput.check(call.input);
        if (!checked.ok) return { result: `The batch is not valid: ${checked.problems}`, isError: true };
        const draft: IntakeDraft = { kind: 'batch', ...checked.value };
        await store.setDraft(session.id, draft);
        return {
          result: 'The batch is shown to the CEO, who can confirm or edit it.',
          shown: [{ kind: 'batch', data: { ...checked.value } }],
        };
      }
      return { result: `Unknown tool ${call.name}.`, isError: true };
    },
  };
}
