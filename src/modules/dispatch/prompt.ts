/**
 * The short prompt a dispatched agent starts with: who it is, the task (id, title, status) and
 * the gateway verb to call first, chosen from its role, the task's status and why it was spawned.
 * Everything else (the plan, the evidence, the briefing) comes from the gateway's own answers.
 */
import type { TaskStatus } from '../lifecycle/index.js';
import type { DispatchAgent, WorkKind } from './routing.js';

export interface PromptTask {
  id: string;
  title: string;
  status: TaskStatus;
}

const ROLE_NAMES: Record<string, string> = {
  developer: 'a developer',
  qa: 'the QA engineer',
  documenter: 'the documenter',
  cell_pm: 'the cell PM',
  main_pm: 'the main PM',
  pr_reviewer: 'a PR reviewer',
  product_owner: 'the product owner',
  head_marketing: 'the head of marketing',
  auditor: 'the auditor',
};

/** Roles whose gateway route finds work with `triage` rather than `give_me_work`. */
const TRIAGE_ROLES: readonly string[] = ['product_owner', 'head_marketing', 'auditor'];

/** The first verb and what follows it, per role and situation. */
function firstSteps(agent: DispatchAgent, task: PromptTask, kind: WorkKind): string {
  const { role } = agent;
  if (kind === 'closure') {
    const rollUp = role === 'main_pm' ? 'submit_root' : 'submit_up';
    const resume = task.status === 'paused' ? '`resume` it, then ' : '';
    return `All its subtasks are finished: ${resume}call \`${rollUp}\` to open its pull request and submit it for review.`;
  }
  if (role === 'developer') {
    if (['pending', 'claimed', 'needs_revision'].includes(task.status)) {
      return 'Call `i_will_work_on` with this task_id and your plan; then do the work, `commit` it, `open_pr` and call `i_am_done`.';
    }
    return 'Call `give_me_work` to get its briefing, then finish the work: `commit`, `open_pr`, `i_am_done`.';
  }
  if (role === 'qa') {
    return 'Call `claim_review` with this task_id, check the work against its acceptance criteria, then `pass` or `fail` it.';
  }
  if (role === 'documenter') {
    return 'Call `claim_doc_task` with this task_id, document the change and `commit` it, then call `i_documented`.';
  }
  if (role === 'pr_reviewer') {
    return 'Call `claim_gate_review` with this task_id, review the pull request, then `pr_pass` or `pr_fail`.';
  }
  if (role === 'cell_pm' || role === 'main_pm') {
    if (task.status === 'awaiting_pm_review') {
      return 'Review it: call `complete` to accept it (merging its pull request), or `request_changes` with what must change.';
    }
    return 'Call `i_will_plan` with this task_id and your plan, then `delegate` its subtasks to your team.';
  }
  return 'Call `give_me_work` to get your briefing.';
}

/** The prompt of a dispatched spawn. */
export function composePrompt(agent: DispatchAgent, task: PromptTask, kind: WorkKind): string {
  const who = ROLE_NAMES[agent.role] ?? `a ${agent.role}`;
  const team = agent.team ? ` of the ${agent.team} team` : '';
  return [
    `You are ${agent.slug}, ${who}${team} at Gaffer. You work only through the gaffer tools (the gateway).`,
    `Your task: ${task.id} — "${task.title}" (status ${task.status}).`,
    firstSteps(agent, task, kind),
    'If you are blocked call `i_am_blocked`; when you have nothing more to do call `i_am_idle`.',
  ].join('\n');
}

/** The prompt of a spawn without a task (the CEO's manual spawn): find work through the gateway. */
export function taskFreePrompt(agent: DispatchAgent): string {
  const who = ROLE_NAMES[agent.role] ?? `a ${agent.role}`;
  return [
    `You are ${agent.slug}, ${who} at Gaffer. You work only through the gaffer tools (the gateway).`,
    TRIAGE_ROLES.includes(agent.role)
      ? 'Call `triage` to get what needs your attention; when there is nothing call `i_am_idle`.'
      : 'Call `give_me_work` to get your next task and its briefing; when there is none call `i_am_idle`.',
  ].join('\n');
}

/** What of the company charter an agent is told at spawn. */
export interface CharterFacts {
  company_name: string;
  north_star: string;
  objectives: readonly { title: string }[];
  constraints: readonly string[];
}

/** The prompt with a short charter block after it (unchanged when no charter is written). */
export function withCharter(prompt: string, charter: CharterFacts | null): string {
  if (!charter) return prompt;
  const lines = [
    charter.north_star && `North star: ${charter.north_star}`,
    charter.objectives.length > 0 && `Objectives: ${charter.objectives.map((o) => o.title).join('; ')}`,
    charter.constraints.length > 0 && `Constraints: ${charter.constraints.join('; ')}`,
  ].filter((line): line is string => Boolean(line));
  if (lines.length === 0) return prompt;
  const name = charter.company_name ? ` of ${charter.company_name}` : '';
  return [prompt, '', `The company charter${name}:`, ...lines].join('\n');
}
