/**
 * The process runtime hands an agent its routed model and credentials through the environment:
 * GAFFER_MODEL*, and the key under the name its CLI reads — never on argv, never in the transcript.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type FakeAgents, writeFakeAgents } from '../src/modules/runtime/test-fake-agents.js';
import {
  eventsOf,
  printed,
  type RuntimeTestApp,
  startRuntimeApp,
} from '../src/modules/runtime/test-runtime-app.js';

const KEY = 'sk-routed-secret-key-abcdef0123456789';

let t: RuntimeTestApp;
let fakes: FakeAgents;
let runRoot: string;

beforeAll(async () => {
  fakes = writeFakeAgents();
  runRoot = mkdtempSync(join(tmpdir(), 'gaffer-runs-'));
  t = await startRuntimeApp(
    {
      process: {
        providers: { report: fakes.template('report.mjs', '--model {model}') },
        gafferCommand: ['/opt/node/bin/node', '/opt/gaffer/dist/main.js'],
        runRoot,
        modelRoute: async (agent) =>
          agent.role === 'developer'
            ? {
                provider: 'gw',
                kind: 'anthropic',
                model: 'routed-model',
                baseUrl: 'http://127.0.0.1:1',
                apiKey: KEY,
              }
            : agent.role === 'documenter'
              ? {
                  provider: 'google',
                  kind: 'gemini',
                  model: 'gemini-2.5-pro',
                  baseUrl: 'http://127.0.0.1:2',
                  apiKey: KEY,
                }
              : { provider: 'local', kind: 'openai', model: 'qa-model', baseUrl: null, apiKey: KEY },
      },
    },
    { agentSandboxRead: [fakes.dir] },
  );
});
afterAll(async () => {
  await t?.runtime.supervisor.stopAll({ graceful: false });
  await t?.close();
  fakes?.remove();
  rmSync(runRoot, { recursive: true, force: true });
});

async function report(slug: string) {
  const spec = t.specFor(slug, { provider: 'report', model: null });
  const { agent } = await t.runtime.supervisor.spawn('process', spec);
  await t.runtime.supervisor.whenEnded(agent.agentId);
  await eventually(
    () =>
      eventsOf(t.events, 'AGENT_STOPPED', spec.agent.id).length +
        eventsOf(t.events, 'AGENT_ERROR', spec.agent.id).length >
      0,
  );
  await eventually(() => printed(t.events, spec.agent.id).trim().endsWith('}'));
  return { text: printed(t.events, spec.agent.id), body: JSON.parse(printed(t.events, spec.agent.id)) };
}

describe('routed model in the agent environment', () => {
  it('gives an anthropic route as ANTHROPIC_* and GAFFER_MODEL*, the key never on argv', async () => {
    const { body } = await report('be-dev-1');
    expect(body.env).toMatchObject({
      GAFFER_MODEL: 'routed-model',
      GAFFER_MODEL_PROVIDER: 'gw',
      GAFFER_MODEL_BASE_URL: 'http://127.0.0.1:1',
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
    });
    expect(body.env.OPENAI_API_KEY).toBeUndefined();
    expect(body.argv).toEqual(['--model', 'routed-model']);
    expect(JSON.stringify(body.argv)).not.toContain(KEY);
  });

  it('gives an openai route as OPENAI_API_KEY', async () => {
    const { body } = await report('be-qa');
    expect(body.env).toMatchObject({ GAFFER_MODEL: 'qa-model', OPENAI_API_KEY: KEY });
    expect(body.env.ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('gives a gemini route as the Gemini CLI reads it: GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL', async () => {
    const { body } = await report('be-doc');
    expect(body.env).toMatchObject({
      GAFFER_MODEL: 'gemini-2.5-pro',
      GAFFER_MODEL_KIND: 'gemini',
      GEMINI_API_KEY: KEY,
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:2',
    });
    expect(body.env.OPENAI_API_KEY).toBeUndefined();
    expect(body.env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(body.argv).toEqual(['--model', 'gemini-2.5-pro']);
  });
});
