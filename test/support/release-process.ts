/**
 * `gaffer start` as a real child process for the release restart suite: one data directory across
 * restarts, the CEO token from the printed login URL, a JSON client, SIGTERM or SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { GAFFER_MAIN } from './gaffer-cli.js';
import type { ReleaseClient } from './release-world.js';

export interface GafferProcess {
  base: string;
  client: ReleaseClient;
  output(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (kill -9) and wait for the exit. */
  kill(): Promise<void>;
}

/** Starts `gaffer start` on `dataDir` with `variables` (GAFFER_* of the parent are dropped). */
export async function startGaffer(
  dataDir: string,
  variables: Record<string, string>,
): Promise<GafferProcess> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GAFFER_')));
  const env = {
    ...clean,
    GAFFER_DATA_DIR: dataDir,
    GAFFER_PORT: '0',
    GAFFER_LOG_LEVEL: 'warn',
    ...variables,
  };
  const child: ChildProcess = spawn(process.execPath, [GAFFER_MAIN, 'start'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 60_000;
  let login: string | undefined;
  while (!login && Date.now() < deadline && child.exitCode === null) {
    login = /Open the panel: (\S+)/.exec(output)?.[1];
    if (!login) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!login) {
    child.kill('SIGKILL');
    throw new Error(`gaffer did not start; output:\n${output}`);
  }
  const url = new URL(login);
  const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
  const exit = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  return {
    base: url.origin,
    client: {
      async request(method, path, body) {
        const response = await fetch(`${url.origin}${path}`, {
          method,
          headers: {
            'x-agent-token': token,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : null };
      },
    },
    output: () => output,
    stop: () => exit('SIGTERM'),
    kill: () => exit('SIGKILL'),
  };
}
