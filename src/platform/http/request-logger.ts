/**
 * Each request's logger (`request.log`), made lazily. Fastify gives every request a pino child bound
 * to its correlation id, and making one (serialising the binding through the redaction rules) cost
 * a twentieth of a cheap route's time; most requests write no line at the configured level (the
 * per-request line is at debug), so the child is made on the first line that will be written.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** pino's loggers answer whether a level is written; a logger that cannot say is asked every time. */
type Parent = FastifyBaseLogger & { isLevelEnabled?(level: string): boolean };

class RequestLogger implements FastifyBaseLogger {
  readonly #parent: Parent;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: Parent, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  /** Whether a line at `level` could be written (a route's own level, when it has one, decides). */
  #writes(level: Level): boolean {
    if (this.#child || this.#options.level !== undefined || !this.#parent.isLevelEnabled) return true;
    return this.#parent.isLevelEnabled(level);
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#real.level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  #write(level: Level, args: unknown[]): void {
    if (!this.#writes(level)) return;
    const real = this.#real as unknown as Record<Level, (...line: unknown[]) => void>;
    real[level](...args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: a lazily made child per request. */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new RequestLogger(logger, bindings, options);
