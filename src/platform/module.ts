/**
 * The one shape of a module, as the composition root sees it. A factory is handed the platform
 * (stores, bus, clock, secret and the app's logger) and the other modules' faces it declared a need
 * for, and returns its face: what the others may use, its routes, and the work it starts and stops
 * with the app (loops' subscriptions, bus listeners, timers, in-flight work to settle).
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from './context.js';

/** What every module factory is handed: `createXModule({ platform, deps })`. */
export interface ModuleInput<Deps = Record<string, never>> {
  platform: Platform;
  deps: Deps;
}

/** What every module returns, under the names the others use. */
export interface ModuleFace {
  /** Its HTTP routes; nothing else (work that starts or stops with the app goes in start/stop). */
  registerRoutes(app: FastifyInstance): void;
  /** Called once when the app is ready, after the modules it depends on have started. */
  start?(): Promise<void> | void;
  /** Called once when the app closes, before the modules it depends on stop (and before the stores close). */
  stop?(): Promise<void> | void;
}

/** Starts `modules` in order (dependencies first); the first failure stops the start-up. */
export async function startModules(modules: readonly ModuleFace[]): Promise<void> {
  for (const module of modules) await module.start?.();
}

/**
 * Stops `modules` in reverse order (dependents first). A stop that fails does not keep the others
 * from stopping; the first failure is rethrown once all have run.
 */
export async function stopModules(modules: readonly ModuleFace[]): Promise<void> {
  const failures: unknown[] = [];
  for (const module of [...modules].reverse()) {
    try {
      await module.stop?.();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}
