/**
 * Checks a verb's or do-tool's body against its input schema (verb-inputs.ts). An under-filled or
 * malformed body is an `incomplete_input` rejection: `missing` lists the top-level fields to fix,
 * `field_hints` gives each one's answer key (the field's own description), `details` the precise
 * problems. A task id given in its 8-character short form gets the remediate the REST API gives
 * (use the full UUID). The check is the REST API's own JSON-Schema validator
 * (platform/http/validation.ts), compiled once per schema.
 */
import type { TObject, TSchema } from 'typebox';
import { SHORT_ID_REMEDIATE } from '../../platform/http/conventions.js';
import type { FieldProblem } from '../../platform/http/errors.js';
import { schemaCheck } from '../../platform/http/validation.js';
import { type Rejection, reject } from './envelope.js';
import { describe } from './input-fields.js';

/**
 * The body's problems as field paths (`steps[0].description`); empty when it fits. A string with
 * a NUL character is a problem wherever it is (the REST API's rule, platform/http/validation.ts).
 */
export function inputProblems(schema: TObject, body: unknown): FieldProblem[] {
  return schemaCheck(schema)(body);
}

const topField = (field: string): string => field.split(/[.[]/)[0] ?? field;

/** The answer key of a top-level field: its schema description (or the problem when it has none). */
function hintOf(schema: TObject, field: string, problem: string): string {
  const property = (schema.properties as Record<string, TSchema | undefined>)[field];
  const description = property ? describe(property) : undefined;
  return description ?? problem;
}

/** The rejection for a body that does not fit its schema, or null when it fits. */
export function checkInput(schema: TObject, body: unknown): Rejection | null {
  const problems = inputProblems(schema, body);
  if (problems.length === 0) return null;
  const missing = [...new Set(problems.map((p) => topField(p.field)))];
  const fieldHints = Object.fromEntries(
    missing.map((field) => [
      field,
      hintOf(schema, field, problems.find((p) => topField(p.field) === field)!.message),
    ]),
  );
  const shortId = problems.some(
    (p) =>
      /(^|\.)(task_id|parent_task_id)$/.test(p.field) &&
      /^[0-9a-f]{8}$/i.test(String(valueAt(body, p.field))),
  );
  const message = `incomplete input: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`;
  return reject(
    'incomplete_input',
    message,
    shortId ? SHORT_ID_REMEDIATE : `Call again with ${missing.join(', ')} filled in as field_hints say.`,
    { missing, field_hints: fieldHints, details: problems, reason: 'incomplete_input' },
  );
}

function valueAt(body: unknown, field: string): unknown {
  if (body === null || typeof body !== 'object') return undefined;
  return (body as Record<string, unknown>)[field];
}
