/** A chat tool's input checked against its TypeBox schema, the problems said so the model can fix them. */
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

export interface ToolInputCheck<T> {
  /** The schema as plain JSON Schema, for the tool's `input_schema`. */
  jsonSchema: Record<string, unknown>;
  /** The input when it fits, else the problems in one line. */
  check(input: unknown): { ok: true; value: T } | { ok: false; problems: string };
}

export function toolInput<T>(schema: TSchema): ToolInputCheck<T> {
  const validator = Compile(schema);
  return {
    jsonSchema: JSON.parse(JSON.stringify(schema)) as Record<string, unknown>,
    check(input) {
      if (validator.Check(input)) return { ok: true, value: input as T };
      const problems = validator
        .Errors(input)
        .slice(0, 8)
        .map((e) => `${e.instancePath || 'input'}: ${e.message}`)
        .join('; ');
      return { ok: false, problems };
    },
  };
}
