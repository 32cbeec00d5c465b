/**
 * Runs Gaffer as a process: opens the stores named by the configuration, builds the app, listens,
 * and shuts down cleanly on SIGINT/SIGTERM.
 */
import { buildApp, type Gaffer } from './app.js';
import type { Config } from './config.js';
import { startEventBus } from './platform/bus/index.js';
import { openStores } from './platform/cache/index.js';
import { systemClock } from './platform/clock.js';
import type { PlatformStores } from './platform/context.js';
import { openDatabase } from './platform/db/client.js';
import { baseUrl, loadOrCreateSecret } from './platform/http/auth/index.js';

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
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
  });
  const { cache, locks } = await openStores({ redisUrl: config.redisUrl, database });
  const bus = await startEventBus(cache);
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
  let gaffer: Gaffer;
  try {
    gaffer = await buildApp(platform);
    await gaffer.app.listen({ host: config.host, port: config.port });
  } catch (error) {
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
