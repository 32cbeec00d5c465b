import { describe, expect, it } from 'vitest';
import type { EndedRun } from '../runtime/index.js';
import { CliFailureNotices, causeKey, failedOnStart, remedyFor } from './cli-failures.js';

const endedAfter = (
  seconds: number,
  outcome: 'failed' | 'exited',
  refused: string | null = null,
): EndedRun => ({
  agentId: 'a',
  agentSlug: 'be-dev-1',
  taskId: null,
  runId: 'r',
  runtime: 'process',
  provider: 'claude',
  startedAt: new Date(0),
  exit: { outcome, code: 1, signal: null, detail: 'x', endedAt: new Date(seconds * 1000) },
  refused,
});

describe('a failing agent CLI', () => {
  it('gets the remedy its own words call for', () => {
    expect(remedyFor('codex', "exited with code 2: error: unexpected argument '--full-auto' found")).toMatch(
      /refused its command line/,
    );
    expect(remedyFor('claude', 'could not start claude: spawn claude ENOENT')).toMatch(
      /^Install the claude CLI/,
    );
    expect(remedyFor('gemini', 'exited with code 41: Invalid auth method selected.')).toMatch(/credentials/);
    expect(remedyFor('codex', 'exited with code 1: 401 Unauthorized')).toMatch(/Models & agents/);
    expect(remedyFor('codex', 'exited with code 3')).toMatch(/agent's page/);
  });

  it('counts a run as failed on start when it failed within seconds, or was stopped for a refused key', () => {
    expect(failedOnStart(endedAfter(2, 'failed'))).toBe(true);
    expect(failedOnStart(endedAfter(2, 'exited'))).toBe(false);
    expect(failedOnStart(endedAfter(60, 'failed'))).toBe(false);
    expect(failedOnStart(endedAfter(60, 'failed', 'authentication_failed 401'))).toBe(true);
    expect(
      remedyFor('claude', 'the model provider refused the credentials: authentication_failed 401'),
    ).toMatch(/Models & agents/);
  });

  it('tells the CEO once per cause, however many agents and replicas meet it', async () => {
    const counts = new Map<string, number>();
    const cache = {
      incr: async (key: string) => {
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return counts.get(key)!;
      },
    };
    const told: string[] = [];
    const notifyCeo = async (subject: string, body: string) => {
      told.push(`${subject}\n${body}`);
    };
    // Two replicas sharing one cache.
    const [first, second] = [
      new CliFailureNotices({ cache, notifyCeo }),
      new CliFailureNotices({ cache, notifyCeo }),
    ];
    const cause = "exited with code 2: error: unexpected argument '--full-auto' found";
    expect(await first.report({ agentSlug: 'be-dev-1', taskId: null, provider: 'codex', cause })).toBe(true);
    expect(await second.report({ agentSlug: 'fe-dev-1', taskId: null, provider: 'codex', cause })).toBe(
      false,
    );
    expect(await first.report({ agentSlug: 'be-dev-1', taskId: null, provider: 'gemini', cause })).toBe(true);
    expect(told).toHaveLength(2);
    expect(told[0]).toContain(
      "be-dev-1's codex run failed on start: exited with code 2: error: unexpected argument",
    );
    expect(told[0]).toContain('refused its command line');
  });

  it('tells a cause once whatever error-report path, time or request id it carries this time', async () => {
    const said = (stamp: string, request: string) =>
      `[API Error: 401 UNAUTHENTICATED] request ${request} at ${stamp}. Full report available at: /tmp/gemini-client-error-Turn.run-sendMessageStream-${stamp}.json`;
    const first = said('2026-11-29T08-52-17-123Z', '7f3c2a9e-1b4d-4c8e-9f00-1234567890ab');
    const second = said('2026-11-29T08-53-02-981Z', '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
    expect(causeKey(first)).toBe(causeKey(second));
    expect(causeKey(first)).toBe(
      '[API Error: 401 UNAUTHENTICATED] request <id> at <time>. Full report available at: <path>',
    );
    // What tells causes apart stays: the status, the URL and its port, the words.
    expect(causeKey('connect ECONNREFUSED http://127.0.0.1:11434/v1 (404)')).toBe(
      'connect ECONNREFUSED http://127.0.0.1:11434/v1 (404)',
    );
    expect(causeKey('error 429 from ./bin/codex trace 0123456789abcdef0123 run 98765432')).toBe(
      'error 429 from <path> trace <id> run <n>',
    );

    const told: string[] = [];
    const counts = new Map<string, number>();
    const notices = new CliFailureNotices({
      cache: { incr: async (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1).get(key)! },
      notifyCeo: async (subject) => {
        told.push(subject);
      },
    });
    for (const cause of [first, second]) {
      await notices.report({ agentSlug: 'be-dev-1', taskId: null, provider: 'gemini', cause });
    }
    expect(told).toHaveLength(1);
  });
});
