/**
 * Scheduled backups (`system.backup`, every GAFFER_BACKUP_INTERVAL_MINUTES; 0 = off): one replica
 * per pass (the scheduler's lease) writes the store's backup into the backup directory under a
 * `.partial` name, reads it back whole, then gives it its final name; files older than
 * GAFFER_BACKUP_RETENTION_DAYS are then deleted. The directory's files are the record: `list`
 * answers them newest first, for the panel's Settings.
 */
import { createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Platform } from '../../../platform/context.js';
import { dumpStore, readBackup } from '../../../platform/db/backup/index.js';
import type { Scheduler } from '../../../platform/scheduler/index.js';

export const BACKUP_LOOP = 'system.backup';
const NAME = /^gaffer-backup-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)\.jsonl\.gz$/;
const DAY_MS = 86_400_000;

export interface BackupFile {
  name: string;
  bytes: number;
  taken_at: string;
}

export interface BackupSchedule {
  /** The schedule in force: null interval = off. */
  readonly intervalMinutes: number | null;
  readonly retentionDays: number;
  readonly dir: string;
  /** The backups in the directory, newest first. */
  list(): BackupFile[];
  /** Writes, checks and keeps one backup now; prunes the old ones. */
  takeOne(signal?: AbortSignal): Promise<BackupFile>;
}

export function backupSchedule(
  platform: Pick<Platform, 'config' | 'database' | 'clock' | 'log'>,
): BackupSchedule {
  const { config, database, clock, log } = platform;
  const dir = config.backupDir ?? join(config.dataDir, 'backups');
  const list = (): BackupFile[] => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .flatMap((name) => {
        const stamp = NAME.exec(name)?.[1];
        if (!stamp) return [];
        const taken = stamp.replace(/T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/, 'T$1:$2:$3.$4Z');
        return [{ name, bytes: statSync(join(dir, name)).size, taken_at: taken }];
      })
      .sort((a, b) => b.taken_at.localeCompare(a.taken_at));
  };
  return {
    intervalMinutes: config.backupIntervalMinutes > 0 ? config.backupIntervalMinutes : null,
    retentionDays: config.backupRetentionDays,
    dir,
    list,
    async takeOne() {
      mkdirSync(dir, { recursive: true });
      const now = clock.now();
      const name = `gaffer-backup-${now.toISOString().replace(/[:.]/g, '-')}.jsonl.gz`;
      const partial = join(dir, `${name}.partial`);
      try {
        await dumpStore(database, createWriteStream(partial), now);
        await readBackup(partial);
      } catch (error) {
        rmSync(partial, { force: true });
        throw error;
      }
      renameSync(partial, join(dir, name));
      const cutoff = now.getTime() - config.backupRetentionDays * DAY_MS;
      for (const old of list()) {
        if (Date.parse(old.taken_at) < cutoff) {
          rmSync(join(dir, old.name), { force: true });
          log.info({ backup: old.name }, 'backup: deleted past its retention');
        }
      }
      return list().find((file) => file.name === name)!;
    },
  };
}

/** Registers the loop when the schedule is on. */
export function registerBackupLoop(scheduler: Scheduler, schedule: BackupSchedule): void {
  if (schedule.intervalMinutes === null) return;
  scheduler.register({
    name: BACKUP_LOOP,
    intervalMs: schedule.intervalMinutes * 60_000,
    run: async () => {
      await schedule.takeOne();
    },
  });
}
