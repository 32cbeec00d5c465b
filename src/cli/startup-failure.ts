/**
 * What `gaffer` prints when it cannot start: one line naming the store (or the port) that failed,
 * why, and what to check — never a stack trace (those are for GAFFER_LOG_LEVEL=debug or --debug).
 */
import { DataDirInUseError } from '../platform/db/data-dir-lock.js';
import type { StartupError } from '../server.js';

/** A URL safe to print: the user and password become "…". */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1…@');
  } catch {
    return '(an invalid URL)';
  }
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function codeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; errors?: unknown[]; cause?: unknown } | null;
  if (typeof e?.code === 'string') return e.code;
  // The stores wrap driver errors (StoreUnreachableError, DrizzleQueryError): the code is on the cause.
  const fromCause = e?.cause ? codeOf(e.cause) : undefined;
  if (fromCause) return fromCause;
  // Node's happy-eyeballs connect fails with an AggregateError of one error per address.
  const inner = Array.isArray(e?.errors) ? e.errors.map(codeOf).find(Boolean) : undefined;
  // Some clients fold the socket error into their own message ("… connect ECONNREFUSED 127.0.0.1:6379").
  return inner ?? /\b(E[A-Z_]{4,})\b/.exec(e instanceof Error ? e.message : '')?.[1];
}

/** The first line of an error's message, without the driver's long tails. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim() || (error as Error)?.name || 'unknown error';
}

/** Why a connection or a store call failed, in a few words ("connection refused"). */
export function reason(error: unknown): { network: boolean; text: string } {
  const code = codeOf(error);
  const network = code !== undefined && code in NETWORK_REASONS;
  if (network) return { network, text: NETWORK_REASONS[code]! };
  if (/timeout|timed out/i.test(firstLine(error))) return { network: true, text: 'timed out' };
  return { network: false, text: firstLine(error) };
}

function postgres(url: string, cause: unknown): string {
  const at = `PostgreSQL at ${shownUrl(url)}`;
  const why = reason(cause);
  const code = codeOf(cause);
  if (why.network)
    return `cannot reach ${at} (${why.text}) — check GAFFER_DATABASE_URL and that the server runs`;
  if (code === '28P01' || code === '28000')
    return `${at} refused the login (${why.text}) — check the user and password in GAFFER_DATABASE_URL`;
  if (code === '3D000')
    return `${at}: ${why.text} — create the database or fix its name in GAFFER_DATABASE_URL`;
  return `cannot use ${at} (${why.text}) — check GAFFER_DATABASE_URL, the server and the user's rights`;
}

function embedded(dataDir: string, cause: unknown): string {
  if (cause instanceof DataDirInUseError)
    return (
      `the embedded database in ${cause.dir} is in use by process ${cause.holder} (a running Gaffer?) — ` +
      'stop that process, or set GAFFER_DATA_DIR to another directory'
    );
  return (
    `cannot open the embedded database under ${dataDir} (${reason(cause).text}) — ` +
    'check that GAFFER_DATA_DIR is a writable directory'
  );
}

function redis(url: string, cause: unknown): string {
  const why = reason(cause);
  return (
    `cannot reach Redis at ${shownUrl(url)} (${why.text}) — check GAFFER_REDIS_URL and that the server runs ` +
    '(unset it to use the in-process store, single replica only)'
  );
}

function listen(host: string, port: number, cause: unknown): string {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (codeOf(cause)) {
    case 'EADDRINUSE':
      return `cannot listen on ${where} (address in use) — another process holds the port; stop it or set GAFFER_PORT`;
    case 'EACCES':
      return `cannot listen on ${where} (permission denied) — use a port above 1023 in GAFFER_PORT`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where} (no such address on this machine) — check GAFFER_HOST`;
    default:
      return `cannot listen on ${where} (${reason(cause).text}) — check GAFFER_HOST and GAFFER_PORT`;
  }
}

/** The one line (without the `gaffer: ` prefix) saying what failed and what to check. */
export function describeStartupFailure(error: StartupError): string {
  const { config } = error;
  switch (error.step) {
    case 'database':
      return config.databaseUrl
        ? postgres(config.databaseUrl, error.cause)
        : embedded(config.dataDir, error.cause);
    case 'redis':
      return redis(config.redisUrl ?? '', error.cause);
    case 'listen':
      return listen(config.host, config.port, error.cause);
  }
}
