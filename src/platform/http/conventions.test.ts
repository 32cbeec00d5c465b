import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnreachableError } from '../store-errors.js';
import { acceptCorrelationId, registerConventions, SHORT_ID_REMEDIATE } from './conventions.js';
import { AppError, ProviderRateLimitError, STORE_RETRY_AFTER_SECONDS } from './errors.js';
import { StringEnum } from './schema-types.js';
import { NUL_MESSAGE, validatorCompiler } from './validation.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify({
    bodyLimit: 1024,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-correlation-id'];
      return typeof incoming === 'string' && acceptCorrelationId(incoming) ? incoming : crypto.randomUUID();
    },
  });
  app.setValidatorCompiler(validatorCompiler());
  registerConventions(app);
  app.get(
    '/api/tasks/:id',
    { schema: { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) } },
    async () => ({ ok: true }),
  );
  app.post(
    '/api/things',
    {
      schema: {
        body: Type.Object(
          {
            task_id: Type.String({ format: 'uuid' }),
            count: Type.Integer({ minimum: 1 }),
            name: Type.String(),
          },
          { additionalProperties: false },
        ),
      },
    },
    async () => ({ ok: true }),
  );
  app.post(
    '/api/enums/:kind',
    {
      schema: {
        params: Type.Object({ kind: Type.String() }),
        querystring: Type.Object({
          page: Type.Optional(Type.Integer({ maximum: 10 })),
          q: Type.Optional(Type.String()),
        }),
        body: Type.Object({
          nature: StringEnum(['technical', 'non_technical']),
          team: Type.Optional(Type.Union([StringEnum(['backend', 'frontend']), Type.Null()])),
          tags: Type.Optional(Type.Array(StringEnum(['a', 'b']))),
          notes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        }),
      },
    },
    async () => ({ ok: true }),
  );
  app.get('/api/conflict', async () => {
    throw new AppError(409, 'already_claimed', 'the task is already claimed', { owner: 'be-dev-1' });
  });
  app.get('/api/provider', async () => {
    throw new ProviderRateLimitError('anthropic', 12.2);
  });
  app.get('/api/provider-unknown-wait', async () => {
    throw new ProviderRateLimitError('openai', undefined);
  });
  app.get('/api/boom', async () => {
    throw new Error('database exploded with secret detail');
  });
  await app.ready();
});
afterAll(() => app.close());

describe('correlation id and timing', () => {
  it('echoes a caller-provided X-Correlation-ID and reports the response time', async () => {
    const response = await app.inject({
      url: '/api/tasks/not-a-uuid',
      headers: { 'x-correlation-id': 'req-42' },
    });
    expect(response.headers['x-correlation-id']).toBe('req-42');
    expect(response.json().correlation_id).toBe('req-42');
    expect(response.headers['x-response-time-ms']).toMatch(/^\d+\.\d{2}$/);
  });

  it('generates one when absent or unusable', async () => {
    const plain = await app.inject({ url: '/api/nowhere' });
    expect(plain.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await app.inject({
      url: '/api/nowhere',
      headers: { 'x-correlation-id': 'a b\u0007<script>' },
    });
    expect(hostile.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('error model', () => {
  it('answers unknown paths with a clean 404', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/api/never/heard/of?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      error: { code: 'not_found', message: 'no route DELETE /api/never/heard/of' },
    });
  });

  it('maps domain errors to their status, code and details', async () => {
    const response = await app.inject({ url: '/api/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: { code: 'already_claimed', details: { owner: 'be-dev-1' } },
    });
  });

  it('gives 422 with field-level details, never coercing body types', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/things',
      payload: { task_id: '6f1c2a9e-4b7d-4c1e-9a3b-2d5e8f0a1b2c', count: '3', extra: true },
    });
    expect(response.statusCode).toBe(422);
    const fields = response.json().error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['body.count', 'body.name', 'body.extra']));
    expect(response.json().error.remediate).toBeUndefined();
  });

  it('adds the full-UUID remediation when an 8-character short task id is sent', async () => {
    const inBody = await app.inject({
      method: 'POST',
      url: '/api/things',
      payload: { task_id: '6f1c2a9e', count: 1, name: 'x' },
    });
    expect(inBody.statusCode).toBe(422);
    expect(inBody.json().error.remediate).toBe(SHORT_ID_REMEDIATE);
    const inPath = await app.inject({ url: '/api/tasks/6F1C2A9E' });
    expect(inPath.statusCode).toBe(422);
    expect(inPath.json().error).toMatchObject({ code: 'validation_failed', remediate: SHORT_ID_REMEDIATE });
    const notShort = await app.inject({ url: '/api/tasks/banana' });
    expect(notShort.json().error.remediate).toBeUndefined();
  });

  it('names the field and the allowed values of a bad enum value, nullable or in an array', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/enums/x',
      payload: { nature: 'feature', team: 'ops', tags: ['a', 'c'] },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toBe(
      'the request is invalid: nature must be one of: technical, non_technical; ' +
        'team must be one of: backend, frontend, or null; tags.1 must be one of: a, b',
    );
    expect(response.json().error.details).toEqual([
      { field: 'body.nature', message: 'nature must be one of: technical, non_technical' },
      { field: 'body.team', message: 'team must be one of: backend, frontend, or null' },
      { field: 'body.tags.1', message: 'tags.1 must be one of: a, b' },
    ]);
  });

  it('refuses a NUL character in any string, naming the field: path, query, body, nested, property names', async () => {
    const details = async (url: string, payload: object) => {
      const response = await app.inject({ method: 'POST', url, payload });
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().error.code).toBe('validation_failed');
      return response.json().error.details;
    };
    const fine = { nature: 'technical' };
    expect(await details('/api/enums/a%00b', fine)).toEqual([{ field: 'params.kind', message: NUL_MESSAGE }]);
    expect(await details('/api/enums/x?q=a%00b', fine)).toEqual([{ field: 'query.q', message: NUL_MESSAGE }]);
    expect(await details('/api/enums/x', { ...fine, notes: { deep: ['ok', 'a\u0000'] } })).toEqual([
      { field: 'body.notes.deep.1', message: NUL_MESSAGE },
    ]);
    expect(await details('/api/enums/x', { ...fine, notes: { 'k\u0000': 1 } })).toEqual([
      { field: 'body.notes.k\\u0000', message: NUL_MESSAGE },
    ]);
    // With other problems, the NUL is reported beside them.
    expect(await details('/api/enums/x', { nature: 'a\u0000' })).toEqual([
      { field: 'body.nature', message: 'nature must be one of: technical, non_technical' },
      { field: 'body.nature', message: NUL_MESSAGE },
    ]);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/enums/x?q=fine',
      payload: { ...fine, notes: { a: 'b' } },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a query integer above its maximum instead of rounding it', async () => {
    for (const page of ['11', '9007199254740993', '1e30']) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/enums/x?page=${page}`,
        payload: { nature: 'technical' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.details).toEqual([{ field: 'query.page', message: 'must be <= 10' }]);
    }
  });

  it('refuses an oversized body with 413 and unreadable JSON with 400', async () => {
    const big = await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'x'.repeat(4096) } });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('payload_too_large');
    const broken = await app.inject({
      method: 'POST',
      url: '/api/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('invalid_json');
  });

  it('maps a provider rate limit to 429 with Retry-After', async () => {
    const response = await app.inject({ url: '/api/provider' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('13');
    expect(response.json().error).toMatchObject({
      code: 'rate_limit_exceeded',
      details: { provider: 'anthropic' },
    });
    const unknownWait = await app.inject({ url: '/api/provider-unknown-wait' });
    expect(unknownWait.headers['retry-after']).toBe('60');
  });

  it('hides the detail of unexpected errors behind a 500', async () => {
    const response = await app.inject({ url: '/api/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret detail');
    expect(response.json().error.code).toBe('internal_error');
  });
});

describe('backing stores', () => {
  /** Real driver errors: a query on a closed PGlite, and a unique violation (SQL in the message). */
  let closedDatabase: unknown;
  let duplicate: unknown;
  let stores: FastifyInstance;

  beforeAll(async () => {
    const client = await PGlite.create();
    const db = drizzle({ client });
    await db.execute(sql`create table t (id int primary key)`);
    await db.execute(sql`insert into t values (1)`);
    duplicate = await db.execute(sql`insert into t values (1)`).catch((error: unknown) => error);
    await client.close();
    closedDatabase = await db.execute(sql`select 1`).catch((error: unknown) => error);
    stores = Fastify();
    registerConventions(stores);
    stores.get('/api/database-down', async () => {
      throw closedDatabase;
    });
    stores.get('/api/cache-down', async () => {
      throw new StoreUnreachableError('cache', { cause: new Error('Connection is closed.') });
    });
    stores.get('/api/duplicate', async () => {
      throw duplicate;
    });
    await stores.ready();
  });
  afterAll(() => stores?.close());

  it.each([
    ['/api/database-down', 'database'],
    ['/api/cache-down', 'cache'],
  ])(
    '%s answers 503 store_unavailable with Retry-After, naming the store and nothing else',
    async (url, store) => {
      const response = await stores.inject({ url });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe(String(STORE_RETRY_AFTER_SECONDS));
      expect(response.json().error).toMatchObject({ code: 'store_unavailable', details: { store } });
      expect(response.json().error.message).toContain(store);
      expect(response.body).not.toMatch(/select|Failed query|PGlite|Connection is closed/i);
    },
  );

  it('answers a database failure that is no outage with a 500 that carries no SQL', async () => {
    expect(String(duplicate)).toMatch(/insert into t/);
    const response = await stores.inject({ url: '/api/duplicate' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['retry-after']).toBeUndefined();
    expect(response.json().error).toEqual({ code: 'internal_error', message: 'an internal error occurred' });
    expect(response.body).not.toMatch(/insert|Failed query|duplicate key/i);
  });
});
