/**
 * Fuzzing from the OpenAPI document: for every operation of /docs/json, fast-check generates bad
 * requests — wrong types, missing required fields, huge and unicode strings, malformed path ids,
 * bad query values, wrong content types, bodies past the size limit — and sends each as the CEO and
 * as a developer. No answer may be a 5xx, and every refusal (4xx) carries the standard error body
 * `{error:{code,message,...},correlation_id}`. The seed is fixed (FUZZ_SEED overrides it) and the runs
 * per operation are few, so the whole walk stays bounded; a failure prints the seed, the operation
 * and the shrunk request.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { type Operation, type Paths, type Schema, sample } from './support/openapi-probes.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 6);
const BODY_LIMIT = 16 * 1024;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

let t: TestApp;
let paths: Paths;
beforeAll(async () => {
  t = await startTestApp({ config: { bodyLimitBytes: BODY_LIMIT } });
  paths = (await t.app.inject({ url: '/docs/json' })).json().paths;
});
afterAll(() => t?.close());

interface FuzzRequest {
  method: string;
  url: string;
  /** A JSON value (sent as JSON) or raw text (sent with `contentType`). */
  payload?: unknown;
  raw?: string;
  contentType?: string;
  what: string;
}

const hugeString = fc.constantFrom('x'.repeat(70_000), '€'.repeat(20_000), '\u{1F600}'.repeat(10_000));
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uFEFF',
    '\uD800',
    '../../etc/passwd',
    '%',
    '%zz',
    "'; drop table tasks; --",
  ),
  hugeString,
);
const wrongValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 1e308),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  oddString,
);
const malformedId = fc.oneof(
  oddString.filter((s) => s.length > 0 && s.length < 5_000),
  fc.constantFrom(
    '00000000-0000-0000-0000-00000000000g',
    '00000000-0000-4000-8000-0000000000000',
    'null',
    '-1',
    '1e999',
  ),
  fc.uuid(),
);

const encodePath = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, 'x'));
  }
};

function requestsFor(path: string, method: string, operation: Operation): fc.Arbitrary<FuzzRequest> {
  const params = operation.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const alternatives = bodySchema
    ? (((bodySchema.anyOf ?? bodySchema.oneOf) as Schema[] | undefined)?.filter(
        (s) => s.type === 'object',
      ) ?? [bodySchema])
    : [];
  const validBody = alternatives[0] ? (sample(alternatives[0]) as unknown) : undefined;
  const properties = Object.keys((alternatives[0]?.properties ?? {}) as Record<string, Schema>);
  const required = (alternatives[0]?.required ?? []) as string[];
  const fill = (overrides: Record<string, string> = {}) =>
    path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      if (name in overrides) return overrides[name]!;
      const parameter = pathParams.find((p) => p.name === name);
      return encodePath(String(sample(parameter?.schema ?? { type: 'string' })));
    });
  const requiredQuery = queryParams
    .filter((p) => p.required)
    .map((p) => `${p.name}=${encodeURIComponent(String(sample(p.schema ?? { type: 'string' })))}`);
  const withQuery = (url: string, extra: string[] = []) => {
    const search = [...requiredQuery, ...extra].join('&');
    return search ? `${url}?${search}` : url;
  };
  const base = { method: method.toUpperCase() };
  const cases: fc.Arbitrary<FuzzRequest>[] = [];

  if (pathParams.length) {
    cases.push(
      fc
        .record({ name: fc.constantFrom(...pathParams.map((p) => p.name)), id: malformedId })
        .map(({ name, id }) => ({
          ...base,
          url: withQuery(fill({ [name]: encodePath(id) })),
          payload: validBody,
          what: `malformed path ${name}`,
        })),
    );
  }
  if (queryParams.length) {
    cases.push(
      fc
        .record({
          name: fc.constantFrom(...queryParams.map((p) => p.name)),
          value: fc.oneof(
            oddString,
            wrongValue.map((v) => JSON.stringify(v)),
          ),
          repeat: fc.boolean(),
        })
        .map(({ name, value, repeat }) => {
          const pair = `${name}=${encodePath(value)}`;
          return {
            ...base,
            url: withQuery(fill(), repeat ? [pair, pair] : [pair]),
            payload: validBody,
            what: `bad query ${name}`,
          };
        }),
    );
  }
  if (bodySchema) {
    // The whole body of the wrong type.
    cases.push(
      wrongValue.map((payload) => ({
        ...base,
        url: withQuery(fill()),
        payload,
        what: 'body of a wrong type',
      })),
    );
    if (properties.length && validBody && typeof validBody === 'object') {
      cases.push(
        fc.record({ name: fc.constantFrom(...properties), value: wrongValue }).map(({ name, value }) => ({
          ...base,
          url: withQuery(fill()),
          payload: { ...(validBody as object), [name]: value },
          what: `body ${name} of a wrong type or size`,
        })),
      );
    }
    if (required.length) {
      cases.push(
        fc.constantFrom(...required).map((name) => {
          const payload = { ...(validBody as Record<string, unknown>) };
          delete payload[name];
          return { ...base, url: withQuery(fill()), payload, what: `body without ${name}` };
        }),
      );
    }
    cases.push(
      fc
        .record({
          contentType: fc.constantFrom(
            'text/plain',
            'application/xml',
            'application/x-www-form-urlencoded',
            'application/json',
          ),
          raw: fc.oneof(
            fc.string({ maxLength: 50 }),
            fc.constantFrom('{', '{"a":', '[1,', 'null', '<a/>', 'a=1&b=2'),
          ),
        })
        .map(({ contentType, raw }) => ({
          ...base,
          url: withQuery(fill()),
          raw,
          contentType,
          what: `raw body as ${contentType}`,
        })),
      fc.constant({
        ...base,
        url: withQuery(fill()),
        raw: JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT + 1) }),
        contentType: 'application/json',
        what: 'body past the size limit',
      }),
    );
  }
  if (!cases.length) {
    // No inputs documented: unknown query parameters and a body nobody asked for.
    cases.push(
      fc.record({ value: oddString }).map(({ value }) => ({
        ...base,
        url: withQuery(fill(), [`unexpected=${encodePath(value)}`]),
        ...(base.method === 'GET' || base.method === 'DELETE' ? {} : { payload: { unexpected: value } }),
        what: 'unexpected input',
      })),
    );
  }
  return fc.oneof(...cases);
}

/** What is wrong with the answer, or null when it is fine. */
function fault(status: number, body: string): string | null {
  if (status >= 500) return `answered ${status}: ${body.slice(0, 300)}`;
  if (status < 400) return null;
  let parsed: { error?: { code?: unknown; message?: unknown }; correlation_id?: unknown };
  try {
    parsed = JSON.parse(body);
  } catch {
    return `a ${status} that is not JSON: ${body.slice(0, 200)}`;
  }
  const ok =
    typeof parsed.error?.code === 'string' &&
    typeof parsed.error?.message === 'string' &&
    typeof parsed.correlation_id === 'string';
  return ok ? null : `a ${status} without the standard error body: ${body.slice(0, 300)}`;
}

describe('fuzzing every operation of /docs/json with bad input', () => {
  it('never answers 5xx and refuses in the standard error shape, as the CEO and as a developer', async () => {
    const dev = rosterMember('be-dev-1');
    const callers = {
      ceo: t.ceoHeaders,
      developer: t.headersFor(dev.id, dev.role, dev.team ?? ''),
    };
    const failures: string[] = [];
    let operations = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        operations++;
        for (const [caller, headers] of Object.entries(callers)) {
          const result = await fc.check(
            fc.asyncProperty(requestsFor(path, method, operation), async (request) => {
              const json = request.raw === undefined && request.payload !== undefined;
              const response = await t.app.inject({
                method: request.method as 'GET',
                url: request.url,
                headers: {
                  ...headers,
                  ...(json ? { 'content-type': 'application/json' } : {}),
                  ...(request.contentType ? { 'content-type': request.contentType } : {}),
                },
                ...(request.raw !== undefined ? { payload: request.raw } : {}),
                ...(json ? { payload: JSON.stringify(request.payload) } : {}),
              });
              const problem = fault(response.statusCode, response.body);
              if (problem) throw new Error(problem);
            }),
            { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
          );
          if (result.failed) {
            const example = result.counterexample?.[0] as FuzzRequest | undefined;
            failures.push(
              `${method.toUpperCase()} ${path} as ${caller} (seed ${SEED}, path ${result.counterexamplePath}): ` +
                `${example?.what} → ${example?.method} ${example?.url.slice(0, 200)} ` +
                `${JSON.stringify(example?.payload ?? example?.raw ?? null).slice(0, 200)}\n    ${String(result.errorInstance).slice(0, 400)}`,
            );
          }
        }
      }
    }
    expect(operations).toBeGreaterThan(100);
    if (failures.length) console.error(`fuzz failures (FUZZ_SEED=${SEED}):\n${failures.join('\n')}`);
    expect(failures).toEqual([]);
  }, 180_000);
});
