/** A chat tool's input checked against its TypeBox schema, the problems said so the model can fix them. */
import type { TSchema } from 'typebox';
import { schemaCheck } from '../../platform/http/validation.js';

export interface ToolInputCheck<T> {
  /** The schema as plain JSON Schema, for the tool's `input_schema`. */
  jsonSchema: Record<string, unknown>;
  /** The input when it fits, else the problems in one line. */
  check(input: unknown): { ok: true; value: T } | { ok: false; problems: string };
}

export function toolInput<T>(schema: TSchema): ToolInputCheck<T> {
  const check = schemaCheck(schema);
  return {
    jsonSchema: JSON.parse(JSON.stringify(schema)) as Record<string, unknown>,
    check(input) {
      const found = check(input, 'input');
      if (found.length === 0) return { ok: true, value: input as T };
      const problems = found
        .slice(0, 8)
        .map((problem) => `${problem.field}: ${problem.message}`)
        .join('; ');
      return { ok: false, problems };
    },
  };
}
