/**
 * The process runtime's MCP wiring with real processes all the way: the runtime starts a fake agent
 * CLI, which starts the real `gaffer agent-tools` from the MCP configuration the runtime wrote and
 * calls a verb; the call reaches the gateway (a loopback server recording requests, standing in for
 * the gateway routes) signed with the token that only ever travelled in the environment.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAgents, writeFakeAgents } from '../src/modules/runtime/test-fake-agents.js';
import { printed, type RuntimeTestApp, startRuntimeApp } from '../src/modules/runtime/test-runtime-app.js';
import { GAFFER_COMMAND } from './support/gaffer-cli.js';

const TASK_ID = '3f1c2b9e-8d4a-4c1e-9b7f-2a6d5e4c3b21';
const ARGS = { task_id: TASK_ID, plan: 'Add the endpoint, then its tests', steps: ['endpoint', 'tests'] };

let t: RuntimeTestApp;
let fakes: FakeAgents;
let gateway: Server;
let gatewayUrl: string;
const requests: { url: string; headers: IncomingHttpHeaders; body: unknown }[] = [];

beforeAll(async () => {
  fakes = writeFakeAgents();
  gateway = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      requests.push({ url: request.url ?? '', headers: request.headers, body: JSON.parse(body) });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ ok: true, status: 'in_progress', task_id: TASK_ID, next: 'i_am_done' }));
    });
  });
  await new Promise<void>((done) => gateway.listen(0, '127.0.0.1', done));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  t = await startRuntimeApp(
    {
      process: {
        providers: { mcp: fakes.template('mcp-agent.mjs', `{mcp_config} '${JSON.stringify(ARGS)}'`) },
        gafferCommand: [...GAFFER_COMMAND],
      },
    },
    { agentSandboxRead: [fakes.dir] },
  );
});
afterAll(async () => {
  await t?.close();
  fakes?.remove();
  await new Promise((done) => gateway?.close(done));
});

describe('the MCP tool server of a process run', () => {
  it('is started by the agent CLI from the written config and forwards verbs signed with the agent token', async () => {
    const spec = t.specFor('be-dev-1', { provider: 'mcp', gatewayUrl, token: 'expiring.token-of-be-dev-1' });
    const { agent } = await t.runtime.supervisor.spawn('process', spec);
    const exit = await t.runtime.supervisor.whenEnded(agent.agentId);
    expect(exit, printed(t.events, spec.agent.id, 'stderr')).toMatchObject({ outcome: 'exited', code: 0 });

    const said = printed(t.events, spec.agent.id);
    expect(said).toMatch(/^tools: (.+,)?i_will_work_on(,.+)?$/m);
    expect(said).toContain('answer: ');
    expect(said).toContain('in_progress');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ url: '/api/v1/flow/developer/i_will_work_on', body: ARGS });
    expect(requests[0]?.headers).toMatchObject({
      'x-agent-id': spec.agent.id,
      'x-agent-role': 'developer',
      'x-agent-team': 'backend',
      'x-agent-token': 'expiring.token-of-be-dev-1',
    });
  });
});
