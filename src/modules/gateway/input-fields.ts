/**
 * The building blocks of the gateway's inputs (each verb's beside it in verbs/*.ts, the do-tools'
 * in verb-inputs.ts): the limits every text field is held to, and the field schemas several verbs
 * share (task id, findings, resolved findings, reasons, notes). Each field's `description` doubles as its answer key: an
 * `incomplete_input` envelope lists it under `field_hints`.
 */
import { type TProperties, Type } from 'typebox';
import { FINDING_SEVERITIES } from '../findings/index.js';

/** Lengths and counts of the gateway inputs (reference A §8.5 and §9). */
export const INPUT_LIMITS = {
  /** i_will_work_on `plan`, i_will_plan `approach`. */
  planMin: 150,
  planMax: 4_000,
  stepDescriptionMin: 60,
  stepDescriptionMax: 600,
  stepsMax: 15,
  subTasksMax: 7,
  titleMax: 200,
  listItemMax: 500,
  listMax: 20,
  /** i_am_done `notes` (the developer's summary, what QA reads first). */
  devNotesMin: 40,
  qaNotesMin: 80,
  docNotesMin: 20,
  pmNotesMin: 20,
  reviewerNotesMin: 40,
  reasonMin: 10,
  blockReasonMin: 8,
  notesMax: 8_000,
  evidenceMin: 8,
  findingsMax: 10,
  commitSubjectMin: 20,
  commitMessageMax: 5_000,
  filesMax: 200,
  noteMax: 8_000,
  dmMax: 10_000,
} as const;

const L = INPUT_LIMITS;

export const TaskId = (
  description = 'The task’s full 36-character UUID (the `task_id` of the last envelope).',
) => Type.String({ format: 'uuid', description });

export const Text = (min: number, max: number, description: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '\\S', description });

export const Strings = (description: string, minItems = 0, maxItems: number = L.listMax) =>
  Type.Array(Type.String({ minLength: 1, maxLength: L.listItemMax }), { minItems, maxItems, description });

export const Reason = (description: string, min: number = L.reasonMin) => Text(min, 2_000, description);

export const Notes = (min: number, description: string) => Text(min, L.notesMax, description);

/** A repo-relative path: no leading slash, drive letter, `..` segment or control character. */
const REPO_PATH = '^(?![\\\\/])(?![A-Za-z]:)(?!(?:.*[\\\\/])?\\.\\.(?:[\\\\/]|$))[^\\u0000-\\u001f\\u007f]+$';

/** One review finding, as QA, the PR gate or a PM raises it (stored in the findings ledger). */
export const Finding = Type.Object(
  {
    file: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        pattern: REPO_PATH,
        description: 'Repo-relative path (no leading /, drive letter or .. segment).',
      }),
    ),
    line: Type.Optional(Type.Integer({ minimum: 1, description: 'Line in the file (1-based).' })),
    severity: Type.Enum([...FINDING_SEVERITIES], { description: 'blocker | major | minor | nit.' }),
    criterion: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'The acceptance-criterion id or its exact text this finding is about.',
      }),
    ),
    expected: Text(1, 300, 'What should happen.'),
    actual: Text(1, 300, 'What happens instead.'),
    fix: Text(1, 500, 'How to fix it.'),
    evidence: Type.Optional(
      Type.String({ maxLength: 2_000, description: 'Output, log or quote proving it.' }),
    ),
  },
  { description: 'A finding: file:line (severity) — expected → actual → fix.' },
);

export const Findings = (description: string) =>
  Type.Array(Finding, { minItems: 1, maxItems: L.findingsMax, description });

/** Findings of earlier review rounds the work now addresses. */
export const ResolvedFindings = Type.Optional(
  Type.Array(
    Type.Object({
      finding_id: Type.String({
        minLength: 8,
        maxLength: 40,
        description: 'The finding id, or its first 8+ characters (`F-` in front is fine).',
      }),
      commit: Type.Optional(
        Type.String({ pattern: '^[0-9a-fA-F]{7,40}$', description: 'The commit that addresses it.' }),
      ),
      note: Type.Optional(Type.String({ maxLength: 300, description: 'How it was addressed.' })),
    }),
    {
      maxItems: 100,
      description: 'Every open finding of the task this submission addresses (from the findings ledger).',
    },
  ),
);

/** A schema's description, if it has one. */
export const describe = (schema: unknown): string | undefined =>
  (schema as { description?: unknown }).description as string | undefined;

/** An object schema of named fields; extra fields are tolerated (agents send more than asked). */
export const Input = <P extends TProperties>(properties: P, description: string) =>
  Type.Object(properties, { description });

/** The input of a verb that takes only its task. */
export const taskOnly = (description: string) => Input({ task_id: TaskId() }, description);

/** The input of a verb that takes nothing. */
export const nothing = (description: string) => Input({}, description);
