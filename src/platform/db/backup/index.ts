/** Backups of the whole store in one portable file (format.ts): written by dump.ts, checked and restored by restore.ts; a store moved to PostgreSQL through one (move.ts). */
export { dependencyOrder, parentsFirst, readCatalog } from './catalog.js';
export { appliedMigrations, dumpStore, migrationTags, tableChecksums } from './dump.js';
export { type Backup, BackupFileError, type BackupHeader, readBackup } from './format.js';
export {
  MoveMismatchError,
  type MoveSummary,
  MoveTargetError,
  moveStore,
  POSTGRES_URL,
  pauseWrites,
  redactUrl,
} from './move.js';
export { nonEmptyTables, type RestoreSummary, restoreStore, StoreNotEmptyError } from './restore.js';
