/**
 * Recognises ioredis failures that mean "Redis cannot be reached" (as opposed to a command Redis
 * refused), and turns them into `StoreUnreachableError('cache')` at the cache's edge, so the rest of
 * the app sees one kind of error whatever the client library says.
 */
import { StoreUnreachableError } from '../store-errors.js';

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
 * ioredis with the offline queue off ("Stream isn't writeable…"), a connection dropped under a
 * command ("Connection is closed."), a command timeout, our own "redis is not connected" and
 * "cache is closed", and replies of a server that cannot serve yet (LOADING, MASTERDOWN).
 */
const UNREACHABLE_MESSAGE =
  /Stream isn't writeable|enableOfflineQueue|Connection is closed|Command timed out|redis is not connected|cache is closed|^LOADING |^MASTERDOWN /;

export function isCacheUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (current instanceof StoreUnreachableError) return current.store === 'cache';
    const node = current as { name?: unknown; code?: unknown; message?: unknown };
    if (node.name === 'MaxRetriesPerRequestError') return true;
    if (typeof node.code === 'string' && CONNECTION_CODES.has(node.code)) return true;
    if (typeof node.message === 'string' && UNREACHABLE_MESSAGE.test(node.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Runs a Redis call; an unreachable Redis surfaces as `StoreUnreachableError('cache')`. */
export async function onRedis<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof StoreUnreachableError || !isCacheUnreachable(error)) throw error;
    throw new StoreUnreachableError('cache', { cause: error });
  }
}
