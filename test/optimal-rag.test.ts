/**
 * POST /api/optimal/rag/query through the real app on both stores: without a routed model it is the
 * 409 `no_model_provider` with remediation (never a canned answer); with the fake provider it
 * hands the retrieved task to the model as numbered context and answers with the cited item; a
 * model that does not answer within GAFFER_OPTIMAL_RAG_TIMEOUT_SECONDS is a 504 `rag_timeout`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, taskBody, taskOf } from '../src/modules/tasks/test-fixtures.js';
import { insertProject } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { routeFakeProvider } from './support/live-chat.js';

let t: TestApp;
let fake: FakeLlm;

beforeAll(async () => {
  t = await startTestApp({ config: { optimalRagTimeoutSeconds: 1 } });
  fake = await startFakeLlm();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const ask = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/optimal/rag/query', headers: t.ceoHeaders, payload });

describe('rag/query', () => {
  it('is a 409 with remediation while no model is routed, and a 422 for bad input', async () => {
    const refused = await ask({ question: 'How do we rotate certificates?' });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(json<{ error: { code: string; remediate: string } }>(refused).error).toMatchObject({
      code: 'no_model_provider',
      remediate: expect.stringContaining('/api/providers'),
    });
    for (const body of [
      {},
      { question: '' },
      { question: 'x', limit: 0 },
      { question: 'x', limit: 21 },
      { question: 'x', other: 1 },
    ])
      expect((await ask(body)).statusCode, JSON.stringify(body)).toBe(422);
  });

  it('answers from the retrieved task and cites it', async () => {
    const pm = clientFor(t.app, t.headersFor, 'main-pm');
    const task = taskOf(
      await pm.post(
        '/api/tasks',
        taskBody({
          title: 'Rotate the broker certificates',
          description:
            'The zanzibar cluster certificates are rotated with a rolling restart, one broker at a time.',
          project_id: await insertProject(t.platform.database.db),
        }),
      ),
    );
    await t.modules.optimal.indexNow();
    await routeFakeProvider(t, fake);
    fake.script({ kind: 'reply', text: 'Rotate them with a rolling restart, one broker at a time [1].' });

    const answered = await ask({ question: 'How do we rotate the zanzibar certificates?' });
    expect(answered.statusCode, answered.body).toBe(200);
    const body = json<{
      answer: string;
      citations: { source: string; ref: string; title: string; url: string | null }[];
      context_used: { chunks: number; chars: number };
    }>(answered);
    expect(body.answer).toBe('Rotate them with a rolling restart, one broker at a time [1].');
    expect(body.citations).toEqual([
      { source: 'task', ref: task.id, title: 'Rotate the broker certificates', url: `/api/tasks/${task.id}` },
    ]);
    expect(body.context_used.chunks).toBeGreaterThanOrEqual(1);
    expect(body.context_used.chars).toBeGreaterThan(50);
    // The model was handed the task as numbered context, with the question.
    const sent = JSON.stringify(fake.requests.at(-1)!.body);
    expect(sent).toContain('[1] Rotate the broker certificates');
    expect(sent).toContain('rolling restart, one broker at a time');
    expect(sent).toContain('How do we rotate the zanzibar certificates?');
  });

  it('is a 504 rag_timeout when the model does not answer in time', async () => {
    fake.script({ kind: 'hang' });
    const started = Date.now();
    const timedOut = await ask({ question: 'How are the zanzibar certificates rotated?' });
    expect(timedOut.statusCode, timedOut.body).toBe(504);
    expect(json<{ error: { code: string } }>(timedOut).error.code).toBe('rag_timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
