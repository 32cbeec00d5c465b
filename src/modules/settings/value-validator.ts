/**
 * Checks a value against a catalogue schema with the API's one JSON-Schema validator
 * (platform/http/validation.ts) and turns the failures into the field-level problems of a 422:
 * `{ field: 'body.value.mode', message: 'must be ...' }`.
 */
import type { TSchema } from 'typebox';
import type { FieldProblem } from '../../platform/http/errors.js';
import { schemaCheck } from '../../platform/http/validation.js';

export type ValueValidator = (value: unknown, fieldRoot: string) => FieldProblem[];

export function compileValueValidator(schema: TSchema): ValueValidator {
  return schemaCheck(schema);
}
