/**
 * The CEO's edit of a task (PATCH /api/tasks/{id}, god mode), pure: the form's values from the
 * task, the checks made before sending (the server's own limits), and the body holding only what
 * changed. A status change into a review or terminal state, or out of a terminal one, needs force.
 */
import type { TaskState, Team } from '../filters';

export const LIMITS = {
  titleMax: 200,
  descriptionMin: 20,
  descriptionMax: 20_000,
  criteriaMin: 1,
  criteriaMax: 7,
  criterionMax: 200,
  reasonMax: 2_000,
} as const;

export interface OverrideForm {
  title: string;
  description: string;
  /** One acceptance criterion per line. */
  criteria: string;
  priority: string;
  team: Team;
  /** Agent slug (or id); empty = unassigned. */
  assignee: string;
  status: TaskState;
  force: boolean;
  reason: string;
}

export interface TaskLike {
  title: string;
  description: string;
  acceptance_criteria: { text: string }[];
  priority: number;
  team: Team;
  assigned_to: string | null;
  status: TaskState;
}

export type FieldErrors = Partial<Record<keyof OverrideForm, string>>;

const FORCED = new Set([
  'awaiting_qa',
  'awaiting_documentation',
  'awaiting_pr_review',
  'awaiting_pm_review',
  'awaiting_ceo_approval',
  'completed',
  'cancelled',
]);
const TERMINAL = new Set(['completed', 'cancelled']);

/** Whether the server asks for `force` to move a task from `from` to `to` by override. */
export const needsForce = (from: string, to: string): boolean =>
  from !== to && (FORCED.has(to) || TERMINAL.has(from));

export function formOf(task: TaskLike, assigneeSlug: string): OverrideForm {
  return {
    title: task.title,
    description: task.description,
    criteria: task.acceptance_criteria.map((c) => c.text).join('\n'),
    priority: String(task.priority),
    team: task.team,
    assignee: assigneeSlug,
    status: task.status,
    force: false,
    reason: '',
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function validate(form: OverrideForm, original: OverrideForm): FieldErrors {
  const errors: FieldErrors = {};
  const title = form.title.trim();
  if (!title) errors.title = 'Give the task a title.';
  else if (title.length > LIMITS.titleMax) errors.title = `At most ${LIMITS.titleMax} characters.`;
  const description = form.description.trim();
  if (description.length < LIMITS.descriptionMin)
    errors.description = `At least ${LIMITS.descriptionMin} characters.`;
  else if (description.length > LIMITS.descriptionMax)
    errors.description = `At most ${LIMITS.descriptionMax} characters.`;
  const criteria = lines(form.criteria);
  if (criteria.length < LIMITS.criteriaMin || criteria.length > LIMITS.criteriaMax)
    errors.criteria = `Between ${LIMITS.criteriaMin} and ${LIMITS.criteriaMax} criteria, one per line.`;
  else if (criteria.some((c) => c.length > LIMITS.criterionMax))
    errors.criteria = `Each criterion at most ${LIMITS.criterionMax} characters.`;
  if (!/^[0-3]$/.test(form.priority)) errors.priority = 'A priority from 0 (highest) to 3.';
  if (form.status !== original.status && needsForce(original.status, form.status) && !form.force)
    errors.force = `Moving ${original.status.replaceAll('_', ' ')} → ${form.status.replaceAll('_', ' ')} needs force.`;
  if (form.reason.length > LIMITS.reasonMax) errors.reason = `At most ${LIMITS.reasonMax} characters.`;
  return errors;
}

/** The PATCH body: only the fields that changed (null unassigns); empty when nothing did. */
export function changesOf(form: OverrideForm, original: OverrideForm): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (form.title.trim() !== original.title) body.title = form.title.trim();
  if (form.description.trim() !== original.description) body.description = form.description.trim();
  if (lines(form.criteria).join('\n') !== lines(original.criteria).join('\n'))
    body.acceptance_criteria = lines(form.criteria);
  if (form.priority !== original.priority) body.priority = Number(form.priority);
  if (form.team !== original.team) body.team = form.team;
  if (form.assignee.trim() !== original.assignee) body.assigned_to = form.assignee.trim() || null;
  if (form.status !== original.status) {
    body.status = form.status;
    if (form.force) body.force = true;
  }
  if (Object.keys(body).length > 0 && form.reason.trim()) body.reason = form.reason.trim();
  return body;
}

/** The server's 422 field (`body.assigned_to`) as the form's field, if it is one. */
export function formFieldOf(serverField: string): keyof OverrideForm | undefined {
  const name = serverField.replace(/^body\./, '').split('.')[0];
  const map: Record<string, keyof OverrideForm> = {
    title: 'title',
    description: 'description',
    acceptance_criteria: 'criteria',
    priority: 'priority',
    team: 'team',
    assigned_to: 'assignee',
    status: 'status',
    force: 'force',
    reason: 'reason',
  };
  return name ? map[name] : undefined;
}
