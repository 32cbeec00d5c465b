/**
 * Checks a value against a catalogue schema (TypeBox's compiled validator) and turns the failures
 * into the field-level problems of a 422: `{ field: 'body.value.mode', message: 'must be ...' }`.
 */
import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import type { FieldProblem } from '../../platform/http/errors.js';

export type ValueValidator = (value: unknown, fieldRoot: string) => FieldProblem[];

export function compileValueValidator(schema: TSchema): ValueValidator {
  const validator: Validator = Compile(schema);
  return (value, fieldRoot) => (validator.Check(value) ? [] : toProblems(validator.Errors(value), fieldRoot));
}

function toProblems(errors: TLocalizedValidationError[], fieldRoot: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    const path = [fieldRoot, ...error.instancePath.split('/').filter(Boolean)];
    if (error.keyword === 'additionalProperties') {
      for (const name of error.params.additionalProperties) {
        problems.push({ field: [...path, name].join('.'), message: 'is not allowed' });
      }
    } else if (error.keyword === 'required') {
      for (const name of error.params.requiredProperties) {
        problems.push({ field: [...path, name].join('.'), message: 'is required' });
      }
    } else if (!(error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties'))) {
      // (the `boolean` failure of `additionalProperties: false` is reported once, above)
      problems.push({ field: path.join('.'), message: error.message });
    }
  }
  return problems;
}
