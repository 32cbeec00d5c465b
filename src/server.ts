/**
 * Runs Gaffer as a process: opens the stores named by the configuration, builds the app, listens,
 * and shuts down cleanly on SIGINT/SIGTERM.
 */
import { buildApp, type Gaffer } from './app.js';
import type { Config } from './config.js';
import { loggerOptions } from './logging.js';
import { startEventBus } from './platform/bus/index.js';
import { openStores } from './platform/cache/index.js';
import { systemClock } from './platform/clock.js';
import type { PlatformStores } from './platform/context.js';
import { type Database, openDatabase } from './platform/db/client.js';
import { baseUrl, loadOrCreateSecret } from './platform/http/auth/index.js';

/** The step of starting up that failed: the CLI turns it into one line saying what to check. */
export type StartupStep = 'database' | 'redis' | 'listen';

export class StartupError extends Error {
  constructor(
    readonly step: StartupStep,
    readonly config: Pick<Config, 'databaseUrl' | 'dataDir' | 'redisUrl' | 'host' | 'port'>,
    cause: unknown,
  ) {
    super(`${step}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StartupError';
  }
}

async function step<T>(name: StartupStep, config: Config, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw error instanceof StartupError ? error : new StartupError(name, config, error);
  }
}

/** Opens the configured database (applying migrations); a failure is a StartupError('database'). */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return step('database', config, () =>
    openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize }),
  );
}

export interface RunningServer extends Gaffer {
  platform: PlatformStores;
  /** The port actually bound (GAFFER_PORT=0 picks one). */
  port: number;
  /** Base URL the server answers on, from this machine. */
  url: string;
  close(): Promise<void>;
}

/** Opens the database (applying migrations), the cache store and the locks. */
export async function openPlatform(config: Config): Promise<PlatformStores & { close(): Promise<void> }> {
  const secret = loadOrCreateSecret(config);
  const database = await openConfiguredDatabase(config);
  let stores: Awaited<ReturnType<typeof openStores>> | undefined;
  let bus: Awaited<ReturnType<typeof startEventBus>>;
  try {
    // Without Redis neither can fail; with it, the bus's SUBSCRIBE is the first call that must work.
    bus = await step('redis', config, async () => {
      stores = await openStores({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, database });
      return startEventBus(stores.cache);
    });
  } catch (error) {
    await stores?.cache.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
  const { cache, locks } = stores!;
  return {
    config,
    database,
    cache,
    locks,
    bus,
    clock: systemClock,
    secret,
    async close() {
      await bus.stop();
      await cache.close();
      await database.close();
    },
  };
}

export async function startServer(config: Config): Promise<RunningServer> {
  const platform = await openPlatform(config);
  let gaffer: Gaffer | undefined;
  try {
    gaffer = await buildApp(platform, { logger: loggerOptions(config) });
    const { app } = gaffer;
    await step('listen', config, () => app.listen({ host: config.host, port: config.port }));
  } catch (error) {
    await gaffer?.app.close().catch(() => {});
    await platform.close();
    throw error;
  }
  const { app } = gaffer;
  if (!config.secureMode) {
    app.log.warn(
      'SECURE MODE IS OFF (GAFFER_SECURE_MODE=false): identity headers are trusted without a token. Development only.',
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  let closing: Promise<void> | undefined;
  return {
    ...gaffer,
    platform,
    port,
    url: baseUrl({ ...config, publicUrl: undefined, port }),
    close() {
      closing ??= (async () => {
        await app.close();
        await platform.close();
      })();
      return closing;
    },
  };
}
