import { describe, expect, it } from 'vitest';
import type { EndedRun } from '../runtime/index.js';
import { CliFailureNotices, failedOnStart, remedyFor } from './cli-failures.js';

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
});
