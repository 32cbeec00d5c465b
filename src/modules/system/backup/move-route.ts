/**
 * `POST /api/system/store/move` (CEO): moves the running embedded store to an empty PostgreSQL
 * database — what `gaffer store move` asks for while the server runs (the embedded store is the
 * server's alone). The target is checked first (reachable, empty); then every write is paused
 * (pauseWrites: a write answers 503 `store_read_only`, reads go on), the store copied and compared
 * table by table, and the writes stay paused: what is written from here on must go to the new
 * store, so the service is restarted on it. A move that fails resumes the writes and says why.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Platform } from '../../../platform/context.js';
import {
  MoveMismatchError,
  MoveTargetError,
  moveStore,
  nonEmptyTables,
  POSTGRES_URL,
  pauseWrites,
  redactUrl,
  StoreNotEmptyError,
} from '../../../platform/db/backup/index.js';
import { openDatabase } from '../../../platform/db/client.js';
import { sqlState } from '../../../platform/db/errors.js';
import { requireRole } from '../../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../../platform/http/error-schema.js';
import { AppError, conflict } from '../../../platform/http/errors.js';

const MoveBody = Type.Object(
  {
    to: Type.String({
      pattern: POSTGRES_URL.source,
      maxLength: 2000,
      description: 'URL of an empty PostgreSQL database: postgres://user:password@host:5432/database',
    }),
  },
  { additionalProperties: false },
);
const MoveView = Type.Object({
  rows: Type.Integer({ minimum: 0 }),
  tables: Type.Integer({ minimum: 0 }),
  to: Type.String({ description: 'The target, without its password.' }),
  paused_seconds: Type.Number({ description: 'How long writes have been paused for the copy.' }),
  writes: Type.Literal('paused until restart'),
});

const targetProblem = (error: unknown) =>
  new AppError(
    422,
    'target_unreachable',
    `the target database cannot be used: ${sqlState(error) ?? (error as { code?: string }).code ?? 'no answer'}`,
    undefined,
    'Check the URL, that the server answers and that the database exists and the role may create tables in it.',
  );

/** Refuses a target that cannot be reached or holds rows, before anything is paused. */
async function checkTarget(to: string): Promise<void> {
  const target = await openDatabase({ url: to, poolSize: 1, migrate: false });
  try {
    const filled = await nonEmptyTables(target.db).catch((error: unknown) => {
      throw targetProblem(error);
    });
    if (filled.length > 0) throw new StoreNotEmptyError(filled);
  } finally {
    await target.close();
  }
}

export function registerStoreMoveRoute(
  app: FastifyInstance,
  platform: Pick<Platform, 'database' | 'clock' | 'log'>,
): void {
  let state: 'idle' | 'moving' | 'moved' = 'idle';
  app.post<{ Body: { to: string } }>(
    '/api/system/store/move',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: ['system'],
        summary: 'Move the running embedded store to an empty PostgreSQL database (CEO)',
        description:
          'Writes are paused for the copy and stay paused after it (503 `store_read_only`; reads go on): restart ' +
          'Gaffer with GAFFER_DATABASE_URL set to the target and the same auth secret. A failed move resumes them.',
        body: MoveBody,
        response: {
          200: MoveView,
          409: errorResponse(
            'The store is PostgreSQL already, a move runs or ran, or the target holds rows.',
          ),
          422: errorResponse('The target cannot be reached or used.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const { database, clock, log } = platform;
      if (database.kind !== 'pglite') throw conflict('store_not_embedded', 'the store is PostgreSQL already');
      if (state !== 'idle') {
        throw conflict(
          'store_moving',
          state === 'moving' ? 'a move is running' : 'the store was moved: restart Gaffer on the new store',
        );
      }
      state = 'moving';
      let resume: (() => Promise<void>) | undefined;
      try {
        await checkTarget(request.body.to);
        const paused = performance.now();
        resume = await pauseWrites(database);
        const summary = await moveStore(database, request.body.to, clock.now());
        const pausedSeconds = Math.round((performance.now() - paused) / 100) / 10;
        state = 'moved';
        log.warn(
          { to: redactUrl(request.body.to), rows: summary.rows, paused_seconds: pausedSeconds },
          'store moved to PostgreSQL: writes stay paused; restart Gaffer with GAFFER_DATABASE_URL',
        );
        return {
          ...summary,
          to: redactUrl(request.body.to),
          paused_seconds: pausedSeconds,
          writes: 'paused until restart' as const,
        };
      } catch (error) {
        state = 'idle';
        await resume?.();
        if (error instanceof StoreNotEmptyError)
          throw conflict('target_not_empty', `the target ${error.message}`);
        if (error instanceof MoveMismatchError) throw conflict('move_mismatch', error.message);
        if (error instanceof MoveTargetError) throw targetProblem(error.cause);
        throw error;
      }
    },
  );
}
