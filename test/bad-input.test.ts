/**
 * Bad input gets a clear 4xx that says what is allowed, on the whole documented surface: enums
 * are plain `enum`s in /docs/json and a bad value names the allowed ones; a NUL character in any
 * string and an out-of-range integer in any query parameter are 422s (envelopes on the gateway),
 * never a 5xx — checked by sending both to every operation of /docs/json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY, rosterMember } from '../src/modules/agents/index.js';
import { GATEWAY_ROUTE_ROLES, GATEWAY_ROUTES } from '../src/modules/lifecycle/index.js';
import { MAX_QUERY_INTEGER } from '../src/platform/http/schema-types.js';
import { NUL_MESSAGE } from '../src/platform/http/validation.js';
import { startTestApp, type TestApp } from './support/app.js';
import { literalUnions, type Paths, type Probe, probesOf } from './support/openapi-probes.js';

let t: TestApp;
let document: { paths: Paths };
beforeAll(async () => {
  t = await startTestApp();
  document = (await t.app.inject({ url: '/docs/json' })).json();
});
afterAll(() => t.close());

/** Headers of a roster member who may call the gateway route of `path`, else the CEO's. */
function callerOf(path: string): Record<string, string> {
  const route = /^\/api\/v1\/flow\/([a-z_]+)\//.exec(path)?.[1];
  const known = GATEWAY_ROUTES.find((r) => r === route);
  const member = known
    ? DEFAULT_COMPANY.find((entry) => GATEWAY_ROUTE_ROLES[known].includes(entry.role))!
    : path.startsWith('/api/v1/')
      ? rosterMember('be-dev-1')
      : undefined;
  return member ? t.headersFor(member.id, member.role, member.team ?? '') : t.ceoHeaders;
}

const send = (probe: Probe) =>
  t.app.inject({
    method: probe.method,
    url: probe.url,
    headers: callerOf(probe.path),
    ...(probe.body === undefined ? {} : { payload: probe.body as object }),
  });

describe('the OpenAPI document says what is allowed', () => {
  it('has no anyOf/oneOf made only of single-value enums or consts: literal unions are plain enums', () => {
    expect(literalUnions(document)).toEqual([]);
    const create = document.paths['/api/tasks']!.post!.requestBody!.content!['application/json']!.schema!;
    expect((create.properties as Record<string, unknown>).nature).toMatchObject({
      type: 'string',
      enum: ['technical', 'non_technical'],
    });
    // The walk does find a literal union when there is one.
    expect(literalUnions({ a: { anyOf: [{ const: 'x' }, { enum: ['y'] }] } })).toEqual(['$.a.anyOf']);
  });

  it('bounds every integer query parameter', () => {
    const unbounded = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        (operation.parameters ?? [])
          .filter((p) => p.in === 'query' && p.schema?.type === 'integer')
          .filter((p) => !(Number(p.schema?.maximum) <= MAX_QUERY_INTEGER))
          .map((p) => `${method.toUpperCase()} ${path} ?${p.name}`),
      ),
    );
    expect(unbounded).toEqual([]);
  });
});

describe('422s name the field and what is allowed', () => {
  it('a bad enum value names the field and the allowed values', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: t.ceoHeaders,
      payload: { title: 'A task', nature: 'feature' },
    });
    expect(response.statusCode).toBe(422);
    const details = response.json().error.details as { field: string; message: string }[];
    expect(details).toContainEqual({
      field: 'body.nature',
      message: 'nature must be one of: technical, non_technical',
    });
    expect(details.map((d) => d.message).join(' ')).not.toMatch(/constant|anyOf/);
    const query = await t.app.inject({ url: '/api/tasks?status=done', headers: t.ceoHeaders });
    expect(query.statusCode).toBe(422);
    expect(query.json().error.details[0]).toMatchObject({
      field: 'query.status.0',
      message: expect.stringMatching(/^status\.0 must be one of: backlog, pending, claimed, /),
    });
  });

  it('a NUL character is refused in paths, queries and bodies, naming the field', async () => {
    const cases: [string, string, object | undefined, string][] = [
      ['GET', '/api/agents/a%00b', undefined, 'params.id'],
      ['GET', '/api/tasks?assigned_to=a%00b', undefined, 'query.assigned_to'],
      ['POST', '/api/notifications', { subject: 'a\u0000b', body: 'x', recipient_id: 'ceo' }, 'body.subject'],
    ];
    for (const [method, url, payload, field] of cases) {
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        headers: t.ceoHeaders,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(422);
      expect(response.json().error.details).toContainEqual({ field, message: NUL_MESSAGE });
    }
  });

  it('an offset beyond the integer bound is a 422, not rounded and not a 500', async () => {
    for (const path of ['/api/projects', '/api/products', '/api/tasks', '/api/work-sessions']) {
      for (const offset of ['9007199254740993', '1e30', String(MAX_QUERY_INTEGER + 1)]) {
        const response = await t.app.inject({ url: `${path}?offset=${offset}`, headers: t.ceoHeaders });
        expect(response.statusCode, `${path}?offset=${offset}`).toBe(422);
        expect(response.json().error.details).toEqual([
          { field: 'query.offset', message: `must be <= ${MAX_QUERY_INTEGER}` },
        ]);
      }
      const inRange = await t.app.inject({
        url: `${path}?offset=${MAX_QUERY_INTEGER}`,
        headers: t.ceoHeaders,
      });
      expect(inRange.statusCode, path).toBe(200);
    }
  });

  it('the gateway answers a NUL with the incomplete_input envelope naming the field', async () => {
    const dev = rosterMember('be-dev-1');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/do',
      headers: t.headersFor(dev.id, dev.role, dev.team ?? ''),
      payload: { tool: 'dm', to: 'be-qa-1', body: 'hello\u0000' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      ok: false,
      error: 'incomplete_input',
      missing: ['body'],
      field_hints: { body: 'The message.' },
      details: [{ field: 'body', message: NUL_MESSAGE }],
    });
  });
});

describe('bad input never reaches a 5xx', () => {
  it('NUL in every parameter and string body field, huge integers in every numeric query parameter', async () => {
    const probes = probesOf(document.paths);
    expect(probes.length).toBeGreaterThan(300);
    expect(probes.some((p) => p.path.startsWith('/api/v1/flow/'))).toBe(true);
    const offenders: string[] = [];
    for (const probe of probes) {
      const response = await send(probe);
      if (response.statusCode >= 500) {
        offenders.push(`${probe.method} ${probe.url} (${probe.what}) → ${response.statusCode}`);
      }
    }
    if (offenders.length) console.error(`5xx on bad input:\n${offenders.join('\n')}`);
    expect(offenders).toEqual([]);
  }, 300_000);
});
