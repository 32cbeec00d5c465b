/**
 * A run has limits: through the real process runtime, in the agent sandbox, on the kernel's cgroups
 * (run-limits.ts): an agent that forks past its cap of processes and one that allocates past its
 * memory cap are each stopped and recorded failed with the limit they hit, while another agent's run
 * completes and the server answers /health within a second throughout.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { probeRunLimits, probeSandbox } from '../src/platform/process/index.js';
import {
  apiClient,
  type ListeningCompany,
  registerBuiltGafferRuntime,
  startListeningCompany,
} from './support/e2e.js';

const FIXTURES = fileURLToPath(new URL('fixtures', import.meta.url));
const COMMAND = `"${process.execPath}" "${join(FIXTURES, 'runaway-agent.mjs')}" {prompt_file}`;

const [sandbox, limits] = await Promise.all([probeSandbox(), probeRunLimits()]);
const skip = !sandbox.ok ? sandbox.reason : !limits.ready ? limits.reason : null;
if (skip) console.warn(`SKIPPED the run limits suite: ${skip}`);

interface RunAnswer {
  run: { run_id: string; status: string; detail: string | null; limit_hit: string | null };
}

describe.skipIf(skip !== null)('a run past its limits', () => {
  let company: ListeningCompany;
  const api = apiClient<RunAnswer>(
    () => company.base,
    () => company.ceoHeaders,
  );

  beforeAll(async () => {
    company = await startListeningCompany(
      'gaffer-run-limits-',
      {
        agentRuntime: 'process',
        agentProvider: 'custom',
        agentCommandCustom: COMMAND,
        agentSandboxRead: [FIXTURES],
        agentMaxProcesses: 64,
        agentMemoryMb: 256,
        dispatchEnabled: false,
        killGraceSeconds: 1,
      },
      registerBuiltGafferRuntime,
    );
  }, 60_000);

  afterAll(() => company?.close());

  const spawn = async (slug: string, mode: string) => {
    const { status, json } = await api('POST', `/api/orchestrator/agents/${slug}/spawn`, {
      prompt: `Work.\nMODE ${mode}\n`,
    });
    expect(status, JSON.stringify(json)).toBe(201);
    return json.run.run_id;
  };

  const ended = async (slug: string, runId: string) => {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const { json } = await api('GET', `/api/stream/${slug}/runs/${runId}`);
      if (json.run.status !== 'running') return json.run;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${slug}'s run ${runId} did not end`);
  };

  it('stops the fork bomb and the leak, each failed with its limit; the server and an honest run go on', async () => {
    let healthChecks = 0;
    let watching = true;
    const health = (async () => {
      while (watching) {
        const answer = await fetch(`${company.base}/health`, { signal: AbortSignal.timeout(1_000) });
        expect(answer.status).toBe(200);
        healthChecks += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      const [fork, leak, honest] = await Promise.all([
        spawn(rosterMember('be-dev-1').slug, 'fork'),
        spawn(rosterMember('be-dev-2').slug, 'memory'),
        spawn(rosterMember('fe-dev-1').slug, 'honest'),
      ]);
      const [forked, leaked, worked] = await Promise.all([
        ended('be-dev-1', fork),
        ended('be-dev-2', leak),
        ended('fe-dev-1', honest),
      ]);
      expect(forked).toMatchObject({
        status: 'failed',
        limit_hit: 'processes',
        detail: 'stopped: the run reached its cap of 64 processes (GAFFER_AGENT_MAX_PROCESSES)',
      });
      expect(leaked).toMatchObject({
        status: 'failed',
        limit_hit: 'memory',
        detail: 'stopped: the run used its 256 MB of memory (GAFFER_AGENT_MEMORY_MB)',
      });
      expect(worked).toMatchObject({ status: 'exited', limit_hit: null });
    } finally {
      watching = false;
      await health;
    }
    expect(healthChecks).toBeGreaterThan(3);
  });
});
