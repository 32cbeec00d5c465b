/**
 * How the service's log lines look (GAFFER_LOG_FORMAT): pretty, coloured lines for a person at a
 * terminal; one JSON object per line for log collectors, pipes and files.
 */
import pretty from 'pino-pretty';
import { REDACTED_LOG_PATHS } from './app.js';
import type { Config } from './config.js';

/** `auto` pretty-prints when stdout is a terminal and writes JSON otherwise. */
export function prettyLogs(format: Config['logFormat'], stdoutIsTty: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTty);
}

/** The pino options of the service's logger: level, redaction and, when pretty, a pino-pretty stream. */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
): Record<string, unknown> {
  const options = { level: config.logLevel, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' } };
  if (!prettyLogs(config.logFormat, out.isTTY === true)) return options;
  const stream = pretty({
    colorize: out.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    destination: out,
  });
  return { ...options, stream };
}
