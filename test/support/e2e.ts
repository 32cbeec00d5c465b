/**
 * Support for the end-to-end suites, where the app listens on a real port and agents (scripted, or
 * processes speaking MCP) call it over HTTP: a free port, a JSON client as the CEO, and a wait for a
 * task to reach a state that, on a miss, fails with every task's state and what the agents printed.
 */
import { createServer } from 'node:net';
import { expect } from 'vitest';

/** A port free right now (the gateway URL the dispatcher hands agents is fixed at build time). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

export type ApiCall<T> = (
  method: string,
  path: string,
  body?: object,
) => Promise<{ status: number; json: T }>;

/** JSON over HTTP to `base()` with `headers()` (the CEO's, say), both read at each call. */
export function apiClient<T>(base: () => string, headers: () => Record<string, string>): ApiCall<T> {
  return async (method, path, body) => {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { ...headers(), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as T };
  };
}

interface TaskRow {
  status: string;
  title: string;
  assigned_to: string | null;
}

/** Waits up to `limitMs` for task `id` to reach `status`; a miss fails with every task and `explain()`. */
export async function waitForTaskStatus(
  api: ApiCall<unknown>,
  id: string,
  status: string,
  options: { limitMs: number; pollMs: number; explain: () => Promise<string> },
): Promise<void> {
  const deadline = Date.now() + Number(process.env.E2E_LIMIT_MS ?? options.limitMs);
  while (Date.now() < deadline) {
    const { json } = await api('GET', `/api/tasks/${id}`);
    if ((json as TaskRow).status === status) return;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
  const { json } = await api('GET', '/api/tasks?limit=200');
  const states = (json as { tasks: TaskRow[] }).tasks.map(
    (t) => `${t.title}: ${t.status} (${t.assigned_to})`,
  );
  expect.fail(`task ${id} never reached ${status}:\n${states.join('\n')}\n${await options.explain()}`);
}
