/**
 * Bad-input probes derived from the OpenAPI document (/docs/json): for every operation, a request
 * whose only fault is one bad value — a NUL character in one path parameter, query parameter or
 * top-level string body field, or an out-of-range number in one numeric query parameter. Everything
 * else in the request is filled from the schema so that it fits (required query parameters and
 * body properties, enums, formats, minimums).
 */

export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

export type Paths = Record<string, Record<string, Operation>>;

export interface Probe {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The documented path (`/api/agents/{id}`). */
  path: string;
  url: string;
  body?: unknown;
  /** What is bad about it (`query offset=1e30`). */
  what: string;
}

export const NUL_TEXT = 'a\u0000b';
export const NUL_IN_URL = 'a%00b';
/** Past int8, past any float's integer precision, and one that 2^53 would silently round. */
export const HUGE_INTEGERS = ['9223372036854775808', '1e30', '9007199254740993'];

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const PLACEHOLDER_UUID = '00000000-0000-4000-8000-000000000000';

/** Every probe of every operation in `paths`. */
export function probesOf(paths: Paths): Probe[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .flatMap(([method, operation]) =>
        operationProbes(path, method.toUpperCase() as Probe['method'], operation),
      ),
  );
}

function operationProbes(path: string, method: Probe['method'], operation: Operation): Probe[] {
  const params = operation.parameters ?? [];
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const bodies = bodySchema ? alternativesOf(bodySchema) : [];
  const body = bodies[0] ? sample(bodies[0]) : undefined;
  const required = params.filter((p) => p.in === 'query' && p.required);
  const query = (except?: string) =>
    required
      .filter((p) => p.name !== except)
      .map((p) => `${p.name}=${encodeURIComponent(String(sample(p.schema ?? { type: 'string' })))}`);
  const url = (override?: [string, string], extra: string[] = [], except?: string) => {
    const filled = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      if (override?.[0] === name) return override[1];
      const parameter = params.find((p) => p.name === name && p.in === 'path');
      return encodeURIComponent(String(sample(parameter?.schema ?? { type: 'string' })));
    });
    const search = [...query(except), ...extra].join('&');
    return search ? `${filled}?${search}` : filled;
  };

  const probes: Probe[] = [];
  for (const p of params) {
    if (p.in === 'path') {
      probes.push({ method, path, url: url([p.name, NUL_IN_URL]), body, what: `path ${p.name}` });
    } else if (p.in === 'query') {
      const bad = [NUL_IN_URL, ...(isNumeric(p.schema) ? HUGE_INTEGERS : [])];
      for (const value of bad) {
        probes.push({
          method,
          path,
          url: url(undefined, [`${p.name}=${value}`], p.name),
          body,
          what: `query ${p.name}=${value}`,
        });
      }
    }
  }
  // Each alternative of a union body (the do-tools: one per `tool`) is probed on its own.
  for (const alternative of bodies) {
    const fitting = sample(alternative) as Record<string, unknown>;
    for (const [name, schema] of Object.entries((alternative.properties ?? {}) as Record<string, Schema>)) {
      if (!isString(schema) || 'const' in schema) continue;
      probes.push({ method, path, url: url(), body: { ...fitting, [name]: NUL_TEXT }, what: `body ${name}` });
    }
  }
  return probes;
}

const alternativesOf = (schema: Schema): Schema[] =>
  ((schema.anyOf ?? schema.oneOf) as Schema[] | undefined)?.filter((s) => s.type === 'object') ?? [schema];

function isNumeric(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if (schema.type === 'integer' || schema.type === 'number') return true;
  return ((schema.anyOf ?? schema.oneOf) as Schema[] | undefined)?.some(isNumeric) ?? false;
}

function isString(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if (schema.type === 'string') return true;
  return ((schema.anyOf ?? schema.oneOf) as Schema[] | undefined)?.some(isString) ?? false;
}

/** A value that fits `schema` as far as its shape goes. */
export function sample(schema: Schema): unknown {
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return sample(alternatives.find((a) => a.type !== 'null') ?? alternatives[0]!);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return PLACEHOLDER_UUID;
      if (schema.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (schema.format === 'uri') return 'https://example.com/';
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 0);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () =>
        sample((schema.items ?? {}) as Schema),
      );
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, sample(properties[name] ?? {})]));
    }
    default:
      return null;
  }
}

/**
 * Every `anyOf`/`oneOf` in `document` made only of single-value enums or consts (a literal union
 * that should have been one `enum`), as JSON paths.
 */
export function literalUnions(document: unknown, at = '$'): string[] {
  if (document === null || typeof document !== 'object') return [];
  const found: string[] = [];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = (document as Schema)[key];
    if (Array.isArray(members) && members.length > 0 && members.every(isSingleValue))
      found.push(`${at}.${key}`);
  }
  for (const [key, value] of Object.entries(document)) found.push(...literalUnions(value, `${at}.${key}`));
  return found;
}

const isSingleValue = (member: unknown): boolean =>
  member !== null &&
  typeof member === 'object' &&
  ('const' in member ||
    (Array.isArray((member as Schema).enum) && ((member as Schema).enum as unknown[]).length === 1));
