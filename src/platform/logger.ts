/**
 * The logger every module is handed as `platform.log`: the app's (pino, through Fastify), with its
 * level and redactions. `silentLogger` is the one that logs nothing (for stores opened outside an
 * app, e.g. in tests, before `buildApp` hands the modules the app's logger).
 */
import type { FastifyBaseLogger } from 'fastify';

export type Logger = FastifyBaseLogger;

const noop = () => undefined;

export const silentLogger: Logger = {
  level: 'silent',
  fatal: noop,
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  silent: noop,
  child: () => silentLogger,
};
