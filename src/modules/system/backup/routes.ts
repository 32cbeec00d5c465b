/**
 * `GET /api/system/backup` (CEO): a backup of the running store, streamed as it is written — what
 * `gaffer backup` asks for while the server runs (an embedded store is the server's alone).
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Platform } from '../../../platform/context.js';
import { dumpStore } from '../../../platform/db/backup/index.js';
import { requireRole } from '../../../platform/http/auth/index.js';
import { authErrorResponses } from '../../../platform/http/error-schema.js';

export function registerBackupRoutes(
  app: FastifyInstance,
  platform: Pick<Platform, 'database' | 'clock' | 'log'>,
): void {
  app.get(
    '/api/system/backup',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: ['system'],
        summary: 'A backup of the whole store (CEO)',
        description:
          'The store as one transaction sees it, streamed as gzip-compressed JSON lines (docs/operations.md, ' +
          '"Backups"): restorable into PGlite or PostgreSQL with `gaffer restore`. On PostgreSQL writes go on while it ' +
          'is taken; the embedded store holds them until it ends. The auth secret is not in it.',
        response: {
          200: {
            description: 'The backup: gzip-compressed JSON lines.',
            content: { 'application/gzip': { schema: Type.String({ format: 'binary' }) } },
          },
          ...authErrorResponses,
        },
      },
    },
    async (_request, reply) => {
      const now = platform.clock.now();
      const body = new PassThrough();
      dumpStore(platform.database, body, now).catch((error: unknown) => {
        platform.log.error({ err: error }, 'backup: the dump failed; the file is cut short');
        body.destroy(error as Error);
      });
      const stamp = now.toISOString().replace(/[:.]/g, '-');
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="gaffer-backup-${stamp}.jsonl.gz"`)
        .send(body);
    },
  );
}
