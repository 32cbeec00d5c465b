/**
 * Request validation. Bodies are validated strictly (a string is never coerced into a number, so
 * "wrong type" really is a 422); path, query and header values arrive as text and are coerced.
 *
 * One rule holds for every string the API accepts, whatever its schema says: it must not contain
 * the NUL character (U+0000). PostgreSQL cannot store it in text or jsonb, so a NUL that reached
 * SQL would be a 500; here it is a 422 naming the field, in paths, queries, headers and bodies
 * alike (property names included).
 */

import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldProblem } from './errors.js';

export const NUL_KEYWORD = 'no_nul';
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    ...options,
  });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Route schemas compiled once per process, keyed by their JSON (a route registration builds its
 * schema objects anew): every route answering the same error shapes shares one compiled function,
 * and a second app in the process (tests, the demo) compiles nothing again. Compiling was most of
 * the time an app took to become ready.
 */
export function compiledOnce<F>(compile: (schema: object) => F): (schema: object) => F {
  const compiled = new Map<string, F>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let done = compiled.get(key);
    if (done === undefined) {
      done = compile(schema);
      compiled.set(key, done);
    }
    return done;
  };
}

/** Bodies are checked strictly; path, query and header values (text) are coerced. */
let httpValidators: Record<'body' | 'text', (schema: object) => ValidateFunction> | undefined;

export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  if (!httpValidators) {
    const strict = makeAjv({ coerceTypes: false });
    const coercing = makeAjv({ coerceTypes: 'array' });
    httpValidators = {
      body: compiledOnce((schema) => refusingNul(() => strict.compile(schema))),
      text: compiledOnce((schema) => refusingNul(() => coercing.compile(schema))),
    };
  }
  const { body, text } = httpValidators;
  return ({ schema, httpPart }) => (httpPart === 'body' ? body : text)(schema as object);
}

/**
 * Wraps an ajv validator so that a NUL anywhere in the (coerced) value fails it too. The validator
 * is compiled at its route's first request, not at start (compiling every route's schemas was a
 * sixth of a restart).
 */
function refusingNul(compile: () => ValidateFunction): ValidateFunction {
  let validate: ValidateFunction | undefined;
  const check = ((data: unknown, context?: never) => {
    validate ??= compile();
    const fits = validate(data, context);
    const nul = nulProblems(data);
    check.errors = fits && nul.length === 0 ? null : [...(fits ? [] : (validate.errors ?? [])), ...nul];
    return check.errors === null;
  }) as ValidateFunction;
  // Fastify passes the parent object only to a validator with a schema environment (ajv's way of
  // writing a coerced top-level value back); every ajv validator has one.
  Object.assign(check, { schemaEnv: {} });
  return check;
}

/** Every place in `value` where a string (or a property name) holds a NUL, as ajv-style errors. */
export function nulProblems(value: unknown, instancePath = ''): ErrorObject[] {
  if (typeof value === 'string') {
    return value.includes('\u0000') ? [nulError(instancePath)] : [];
  }
  if (value === null || typeof value !== 'object') return [];
  const problems: ErrorObject[] = [];
  for (const [key, item] of Object.entries(value)) {
    const path = `${instancePath}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key.includes('\u0000'))
      problems.push(nulError(`${instancePath}/${key.replaceAll('\u0000', '\\u0000')}`));
    else problems.push(...nulProblems(item, path));
  }
  return problems;
}

const nulError = (instancePath: string): ErrorObject => ({
  keyword: NUL_KEYWORD,
  instancePath,
  schemaPath: `#/${NUL_KEYWORD}`,
  params: {},
  message: NUL_MESSAGE,
});

/** Checks a value against a JSON Schema; the problems as fields (dotted under `root`) and messages. */
export type SchemaCheck = (value: unknown, root?: string) => FieldProblem[];

// The one validator outside HTTP parts (gateway verb inputs, setting values): strict like bodies,
// and it never writes defaults into the value it checks.
const checking = makeAjv({ coerceTypes: false, useDefaults: false });
const checks = new WeakMap<object, SchemaCheck>();

/**
 * The check of `schema` (compiled once per schema object) with the HTTP bodies' rules: no
 * coercion, and a NUL in any string is a problem. `required` and `additionalProperties` failures
 * name the property itself (`steps[0].title is required`), arrays index as `[0]`.
 */
export function schemaCheck(schema: object): SchemaCheck {
  let check = checks.get(schema);
  if (!check) {
    const validate = refusingNul(() => checking.compile(schema));
    check = (value, root = '') => (validate(value) ? [] : fieldProblems(validate.errors ?? [], root));
    checks.set(schema, check);
  }
  return check;
}

function fieldProblems(errors: readonly ErrorObject[], root: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    const path = [root, ...error.instancePath.split('/').filter(Boolean).map(unescapePointer)].filter(
      Boolean,
    );
    const field = (segments: string[]) => fieldPath(segments) || root || 'body';
    if (error.keyword === 'required') {
      problems.push({
        field: field([...path, String(error.params.missingProperty)]),
        message: 'is required',
      });
    } else if (error.keyword === 'additionalProperties') {
      problems.push({
        field: field([...path, String(error.params.additionalProperty)]),
        message: 'is not allowed',
      });
    } else {
      problems.push({ field: field(path), message: error.message ?? 'is invalid' });
    }
  }
  return problems;
}

const unescapePointer = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** `steps`, `0`, `title` → `steps[0].title`. */
const fieldPath = (segments: readonly string[]): string =>
  segments.reduce(
    (out, segment) => (/^\d+$/.test(segment) ? `${out}[${segment}]` : out ? `${out}.${segment}` : segment),
    '',
  );
