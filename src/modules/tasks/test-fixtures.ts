/**
 * Fixtures for the task tests (unit and integration): extra agents, a valid task body, and a small
 * HTTP client acting as a given roster member. Project and raw task rows are in
 * test/fixtures-task-rows.ts. Test-only; nothing imports it at run time.
 */
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../platform/db/client.js';
import type { Role, Team } from '../../platform/http/auth/identity.js';
import { rosterMember } from '../agents/index.js';
import { agents } from '../agents/schema.js';
import type { TaskView } from './view.js';

const suffix = () => randomBytes(4).toString('hex');

/** Inserts `count` agents of `role` on `team`; returns their ids and slugs. */
export async function insertAgents(
  db: Db,
  count: number,
  role: Role,
  team: Team | null,
  prefix = `${role}-${suffix()}`,
): Promise<{ id: string; slug: string }[]> {
  return db
    .insert(agents)
    .values(
      Array.from({ length: count }, (_, index) => ({
        slug: `${prefix}-${index + 1}`,
        name: `${prefix} ${index + 1}`,
        role,
        team,
      })),
    )
    .returning({ id: agents.id, slug: agents.slug });
}

export function taskBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Add the health endpoint',
    description: 'Expose GET /health returning the version, for the load balancer probes.',
    acceptance_criteria: ['GET /health answers 200', 'The body names the version'],
    team: 'backend',
    task_type: 'code',
    nature: 'technical',
    complexity: 'low',
    ...overrides,
  };
}

interface Injector {
  inject(options: {
    method: 'GET' | 'POST' | 'PATCH';
    url: string;
    headers: Record<string, string>;
    payload?: object;
  }): Promise<LightMyRequestResponse>;
}

/** An HTTP client acting as one roster member (by slug) or any identity. */
export function clientFor(
  app: Injector,
  headersFor: (id: string, role: string, team?: string) => Record<string, string>,
  who: string | { id: string; role: string; team?: string | null },
) {
  const identity =
    typeof who === 'string'
      ? (() => {
          const member = rosterMember(who);
          return { id: member.id, role: member.role, team: member.team ?? '' };
        })()
      : { id: who.id, role: who.role, team: who.team ?? '' };
  const headers = headersFor(identity.id, identity.role, identity.team);
  return {
    id: identity.id,
    headers,
    get: (url: string) => app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload?: object) =>
      app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) }),
    patch: (url: string, payload: object) => app.inject({ method: 'PATCH', url, headers, payload }),
    /** POST /api/tasks/{id}/{action}. */
    act: (taskId: string, action: string, payload?: object) =>
      app.inject({
        method: 'POST',
        url: `/api/tasks/${taskId}/${action}`,
        headers,
        ...(payload ? { payload } : {}),
      }),
  };
}

export const taskOf = (response: LightMyRequestResponse): TaskView => response.json() as TaskView;

/** Asserts a 2xx and returns the task; the failure shows the error body. */
export function ok(response: LightMyRequestResponse): TaskView {
  expect(response.statusCode, response.body).toBeLessThan(300);
  return taskOf(response);
}

/** Asserts a refusal with this status and error code, and returns the error. */
export function refused(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().error.code).toBe(code);
  return response.json().error as { code: string; message: string; details: Record<string, unknown> };
}
