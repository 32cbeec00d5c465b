/**
 * `GET /api/system/backup` (CEO): a backup of the running store, streamed as it is written — what
 * `gaffer backup` asks for while the server runs (an embedded store is the server's alone).
 * `GET /api/system/backups`: the schedule and the scheduled backups kept; `POST` takes one now.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Platform } from '../../../platform/context.js';
import { dumpStore } from '../../../platform/db/backup/index.js';
import { requireRole } from '../../../platform/http/auth/index.js';
import { authErrorResponses } from '../../../platform/http/error-schema.js';
import type { BackupSchedule } from './schedule.js';

const BackupFileView = Type.Object({
  name: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  taken_at: Type.String({ format: 'date-time' }),
});
const BackupsView = Type.Object({
  interval_minutes: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Minutes between scheduled backups; null: off (GAFFER_BACKUP_INTERVAL_MINUTES=0).',
  }),
  retention_days: Type.Integer(),
  dir: Type.String({ description: 'Where they are written (GAFFER_BACKUP_DIR).' }),
  backups: Type.Array(BackupFileView, { description: 'The backups kept there, newest first.' }),
});

export function registerBackupRoutes(
  app: FastifyInstance,
  platform: Pick<Platform, 'database' | 'clock' | 'log'>,
  schedule: BackupSchedule,
): void {
  const ceo = requireRole('ceo');
  app.get(
    '/api/system/backups',
    {
      preValidation: ceo,
      schema: {
        tags: ['system'],
        summary: 'The backup schedule and the backups kept (CEO)',
        response: { 200: BackupsView, ...authErrorResponses },
      },
    },
    async () => ({
      interval_minutes: schedule.intervalMinutes,
      retention_days: schedule.retentionDays,
      dir: schedule.dir,
      backups: schedule.list(),
    }),
  );
  app.post(
    '/api/system/backups',
    {
      preValidation: ceo,
      schema: {
        tags: ['system'],
        summary: 'Take a backup now, into the backup directory (CEO)',
        description:
          'Written, read back and checked, then kept like a scheduled one (and pruned by the same retention).',
        response: { 201: BackupFileView, ...authErrorResponses },
      },
    },
    async (_request, reply) => reply.code(201).send(await schedule.takeOne()),
  );
  app.get(
    '/api/system/backup',
    {
      preValidation: ceo,
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
