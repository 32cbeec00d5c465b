/** Recognises PostgreSQL constraint violations and unreachable servers, through Drizzle's wrapper, on PGlite and node-postgres alike. */

/** SQLSTATE of the error or of its cause (Drizzle wraps driver errors in DrizzleQueryError). */
export function sqlState(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';
/** A write to a store that takes none: 25006 (the embedded store while and after it moves). */
export const isReadOnlyStore = (error: unknown) => sqlState(error) === '25006';

/** A ping's answer from a store that takes no writes (SQLSTATE 25006, as a write there would fail). */
export class StoreReadOnlyError extends Error {
  readonly code = '25006';
  constructor() {
    super('the store answers but takes no writes (transaction_read_only is on)');
    this.name = 'StoreReadOnlyError';
  }
}
/** A referenced row is still in use: 23503 (NO ACTION) or 23001 (ON DELETE RESTRICT). */
export const isForeignKeyViolation = (error: unknown) => ['23503', '23001'].includes(sqlState(error) ?? '');

/** Socket failures of a connection to the server (also behind Drizzle's wrapper). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/**
 * SQLSTATEs of a server that is going away or not accepting work: admin_shutdown 57P01,
 * crash_shutdown 57P02, cannot_connect_now 57P03, and the connection_exception class 08xxx.
 */
const UNREACHABLE_SQLSTATE = /^(57P0[123]|08[0-9A-Z]{3})$/;

/** node-postgres and PGlite messages of a connection that is gone or was never made. */
const UNREACHABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|PGlite is closed/i;

/**
 * Whether the database could not be reached: a connection failure of node-postgres (refused,
 * reset, timed out, terminated, pool timeout, the server shutting down) or a closed PGlite, as
 * thrown by the driver or wrapped by Drizzle (`DrizzleQueryError` with the driver error as `cause`).
 * Socket error codes count only where the database is known to be involved (under Drizzle's
 * wrapper), so a refused HTTP call elsewhere is not taken for a database outage.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  let underDrizzle = false;
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const node = current as { code?: unknown; message?: unknown; constructor?: { name?: string } };
    if (node.constructor?.name === 'DrizzleQueryError') underDrizzle = true;
    const code = typeof node.code === 'string' ? node.code : '';
    if (UNREACHABLE_SQLSTATE.test(code)) return true;
    if (underDrizzle && CONNECTION_CODES.has(code)) return true;
    if (typeof node.message === 'string' && UNREACHABLE_MESSAGE.test(node.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether a socket error code says a connection failed (for errors known to come from the driver). */
export const isConnectionFailureCode = (code: unknown): boolean =>
  typeof code === 'string' && CONNECTION_CODES.has(code);
