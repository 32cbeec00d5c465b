/**
 * The gateway's six error flavors through the real app (HTTP 200 envelopes), the authentication
 * and body-format failures that stay HTTP errors, and the envelope's fixed shape.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validVerbs } from '../src/modules/lifecycle/index.js';
import { taskBody } from '../src/modules/tasks/test-fixtures.js';
import { agentClient, type GatewayApp, ok, rejected, startGatewayApp, WORK_PLAN } from './gateway-support.js';

let t: GatewayApp;
let projectId: string;

beforeAll(async () => {
  t = await startGatewayApp();
  projectId = await t.createProject();
});
afterAll(() => t.close());

/** A task opened by the CEO, assigned to `assignee`. */
async function openTask(assignee: string | null, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/tasks',
    headers: t.ceoHeaders,
    payload: taskBody({
      project_id: projectId,
      ...(assignee ? { assigned_to: assignee } : {}),
      ...overrides,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

describe('incomplete_input', () => {
  it('lists the missing and under-filled fields with an answer key for each', async () => {
    const dev = agentClient(t, 'be-dev-1');
    const task = await openTask('be-dev-1');
    const envelope = rejected(
      await dev.verb('i_will_work_on', { task_id: task, plan: 'do it', steps: [] }),
      'incomplete_input',
    );
    expect(envelope.missing).toEqual(
      expect.arrayContaining(['plan', 'steps', 'technical_considerations', 'risks']),
    );
    expect(envelope.field_hints?.plan).toContain('150');
    expect(envelope.field_hints?.risks).toBeTruthy();
    expect(envelope.task_id).toBe(task);
    expect(envelope.current_state).toBe('pending');
    // Nothing happened to the task.
    const view = await t.app.inject({ url: `/api/tasks/${task}`, headers: t.ceoHeaders });
    expect(view.json().status).toBe('pending');
  });

  it('points at the full UUID when a task id is given in its 8-character form', async () => {
    const dev = agentClient(t, 'be-dev-1');
    const task = await openTask('be-dev-1');
    const envelope = rejected(await dev.verb('resume', { task_id: task.slice(0, 8) }), 'incomplete_input');
    expect(envelope.missing).toEqual(['task_id']);
    expect(envelope.remediate).toContain('36-character');
  });

  it('names the content tools when the tool is unknown', async () => {
    const envelope = rejected(await agentClient(t, 'be-dev-1').tool('launch'), 'incomplete_input');
    expect(envelope.field_hints?.tool).toContain('commit');
  });
});

describe('tracing_gap', () => {
  it('refuses i_am_done before a commit and a pull request, naming both', async () => {
    const dev = agentClient(t, 'be-dev-2');
    const task = await openTask('be-dev-2');
    ok(await dev.verb('i_will_work_on', { task_id: task, ...WORK_PLAN }));
    const envelope = rejected(
      await dev.verb('i_am_done', {
        task_id: task,
        notes: 'Added the endpoint and its test; all green locally.',
      }),
      'tracing_gap',
    );
    expect(envelope.missing).toEqual(['commit', 'pull_request']);
    expect(envelope.remediate).toContain('commit');
    expect(envelope.current_state).toBe('in_progress');

    ok(await dev.commitWork(task, 'feat(api): add the health endpoint'));
    const noPr = rejected(
      await dev.verb('i_am_done', {
        task_id: task,
        notes: 'Added the endpoint and its test; all green locally.',
      }),
      'tracing_gap',
    );
    expect(noPr.missing).toEqual(['pull_request']);
    expect(noPr.remediate).toContain('open_pr');
    ok(await dev.verb('unclaim', { task_id: task }));
  });
});

describe('invalid_state', () => {
  it('refuses a verb from a state it is not valid from, with the verbs that are', async () => {
    const dev = agentClient(t, 'fe-dev-1');
    const task = await openTask('fe-dev-1', { team: 'frontend' });
    const envelope = rejected(await dev.verb('resume', { task_id: task }), 'invalid_state');
    expect(envelope.current_state).toBe('pending');
    expect(envelope.valid_next_verbs).toEqual(validVerbs('developer', 'pending'));
    expect(envelope.valid_next_verbs).toContain('i_will_work_on');
    expect(envelope.next).toBe('i_will_work_on');
  });
});

describe('not_authorized', () => {
  it('refuses a developer on the QA route', async () => {
    const envelope = rejected(await agentClient(t, 'be-dev-1').flow('qa', 'pass', {}), 'not_authorized');
    expect(envelope.remediate).toContain('/api/v1/flow/developer/');
  });

  it('refuses a verb the role does not have on its own route', async () => {
    const envelope = rejected(
      await agentClient(t, 'be-dev-1').flow('developer', 'pass', {}),
      'not_authorized',
    );
    expect(envelope.remediate).toContain('i_will_work_on');
    rejected(await agentClient(t, 'be-qa').flow('qa', 'delegate', {}), 'not_authorized');
  });

  it('refuses QA claiming from the developers’ queue (the lifecycle’s own flavor)', async () => {
    const task = await openTask(null);
    const envelope = rejected(
      await agentClient(t, 'be-qa').verb('claim_review', { task_id: task }),
      'not_authorized',
    );
    expect(envelope.message).toContain('queue');
  });

  it('refuses work on a task assigned to someone else, and a commit by a QA', async () => {
    const task = await openTask('be-dev-1');
    const envelope = rejected(
      await agentClient(t, 'be-dev-2').verb('i_will_work_on', { task_id: task, ...WORK_PLAN }),
      'not_authorized',
    );
    expect(envelope.reason).toBe('assigned_elsewhere');
    rejected(
      await agentClient(t, 'be-qa').tool('commit', {
        task_id: task,
        message: 'test: add health endpoint checks',
      }),
      'not_authorized',
    );
  });

  it('refuses a caller that is not an agent of the roster', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/flow/developer/give_me_work',
      headers: t.headersFor('ghost-dev', 'developer', 'backend'),
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ok: false, error: 'not_authorized', reason: 'unknown_agent' });
  });
});

describe('not_found', () => {
  it('answers not_found for a task that does not exist, with a way back to real work', async () => {
    const envelope = rejected(
      await agentClient(t, 'be-dev-1').verb('resume', { task_id: '7d3c9f1e-0000-4000-8000-000000000000' }),
      'not_found',
    );
    expect(envelope.remediate).toContain('give_me_work');
  });
});

describe('what stays an HTTP error', () => {
  it('401 without a token, 400 for a body that is not JSON', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/flow/developer/give_me_work',
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBeTruthy();
    const dev = agentClient(t, 'be-dev-1');
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/flow/developer/give_me_work',
      headers: { ...dev.headers, 'content-type': 'application/json' },
      payload: '{"task_id":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('invalid_json');
  });
});

describe('the envelope', () => {
  it('has the same fields on success, with a context briefing', async () => {
    const envelope = ok(await agentClient(t, 'ux-dev-1').verb('give_me_work'));
    expect(envelope).toMatchObject({
      ok: true,
      status: 'idle',
      task_id: null,
      next: 'i_am_idle',
      evidence: {},
      current_state: null,
      error: null,
    });
    expect(envelope.valid_next_verbs).toEqual(validVerbs('developer'));
    expect(envelope.context_briefing).toMatchObject({
      unread_a2a: { total: 0 },
      pending_notifications: { unread: 0 },
    });
    expect(envelope.correlation_id).toBeTruthy();
  });

  it('briefs the agent on unread messages', async () => {
    ok(
      await agentClient(t, 'ux-pm').tool('dm', {
        to: 'ux-dev-2',
        body: 'Please look at the flaky login test first.',
      }),
    );
    const envelope = ok(await agentClient(t, 'ux-dev-2').verb('give_me_work'));
    expect(envelope.context_briefing).toMatchObject({ unread_a2a: { total: 1 } });
    const read = ok(await agentClient(t, 'ux-dev-2').tool('read_a2a'));
    const conversations = read.data?.conversations as { messages: { from: string; body: string }[] }[];
    expect(conversations[0]?.messages[0]).toMatchObject({
      from: 'ux-pm',
      body: expect.stringContaining('flaky'),
    });
    const after = ok(await agentClient(t, 'ux-dev-2').verb('give_me_work'));
    expect(after.context_briefing).toMatchObject({ unread_a2a: { total: 0 } });
  });
});

describe('the docs', () => {
  it('document every gateway route with its input schema in a valid OpenAPI document', async () => {
    const response = await t.app.inject({ url: '/docs/json' });
    const document = response.json();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    const paths = document.paths as Record<
      string,
      { post?: { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } } }
    >;
    const workOn = paths['/api/v1/flow/developer/i_will_work_on']?.post;
    expect(workOn?.requestBody?.content['application/json']?.schema.required).toEqual(
      expect.arrayContaining(['task_id', 'plan', 'steps', 'risks']),
    );
    expect(paths['/api/v1/do']?.post).toBeDefined();
    expect(paths['/api/v1/flow/{route}/{verb}']?.post).toBeDefined();
    const documented = new Set(
      Object.entries(paths).flatMap(([path, item]) =>
        Object.keys(item).map(
          // `/{*}` is how the docs write Fastify's wildcard `/*` (the panel's page fallback).
          (method) => `${method.toUpperCase()} ${path.replace('{*}', '*').replace(/\{([^}]+)\}/g, ':$1')}`,
        ),
      ),
    );
    expect(t.app.routeCatalogue.filter((route) => !documented.has(route))).toEqual([]);
  });
});

describe('refusals of other modules', () => {
  it('answers an A2A access refusal as not_authorized with the route through the chain', async () => {
    const envelope = rejected(
      await agentClient(t, 'be-dev-1').tool('dm', { to: 'product-owner', body: 'Can we change the scope?' }),
      'not_authorized',
    );
    expect(envelope.reason).toBe('a2a_access_denied');
    expect(envelope.remediate).toContain('→');
  });
});
