/**
 * `gaffer agent-tools` as an agent CLI runs it: the MCP SDK's real client spawns the real command
 * as a child process and speaks MCP to it over stdio. The gateway on the other side is a small
 * loopback HTTP server that records each request and answers gateway-shaped envelopes — it stands
 * in for the real gateway because what is under test here is the MCP server (its tool catalogue,
 * the forwarding of calls, the handling of failures), not the gateway's rules.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doToolsFor, verbInputSchema } from '../src/modules/gateway/index.js';
import {
  GATEWAY_ROUTE_ROLES,
  GATEWAY_ROUTES,
  type GatewayRoute,
  VERBS,
} from '../src/modules/lifecycle/index.js';
import { GAFFER_MAIN } from './support/gaffer-cli.js';

const run = promisify(execFile);
const nodeArgs = [GAFFER_MAIN, 'agent-tools'];
const TOKEN = 'a1b2c3d4e5f6-secret-token-value';
const TASK_ID = '3f1c2b9e-8d4a-4c1e-9b7f-2a6d5e4c3b21';

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}
type Answer = { status: number; body: string };

let gateway: Server;
let gatewayUrl: string;
let requests: RecordedRequest[];
let answer: (request: RecordedRequest) => Answer;
let clients: Client[];

const json = (status: number, body: unknown): Answer => ({ status, body: JSON.stringify(body) });
const successEnvelope = (request: RecordedRequest) => ({
  ok: true,
  status: 'in_progress',
  task_id: TASK_ID,
  next: 'i_am_done',
  evidence: {},
  context_briefing: { unread_a2a: [], pending_notifications: [] },
  current_state: 'in_progress',
  valid_next_verbs: ['i_am_blocked', 'i_am_done'],
  echo: request.url,
});

beforeEach(async () => {
  requests = [];
  clients = [];
  answer = (request) => json(200, successEnvelope(request));
  gateway = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const recorded = {
      method: req.method!,
      url: req.url!,
      headers: req.headers,
      body: JSON.parse(raw || 'null'),
    };
    requests.push(recorded);
    const { status, body } = answer(recorded);
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  gateway.listen(0, '127.0.0.1');
  await once(gateway, 'listening');
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  if (gateway.listening) await stopGateway();
});

async function stopGateway() {
  gateway.closeAllConnections();
  await new Promise((resolve) => gateway.close(resolve));
}

function agentEnv(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const base: Record<string, string | undefined> = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GAFFER_'))),
    GAFFER_GATEWAY_URL: gatewayUrl,
    GAFFER_AGENT_ID: 'be-dev-1',
    GAFFER_AGENT_ROLE: 'developer',
    GAFFER_AGENT_TEAM: 'backend',
    GAFFER_AGENT_TOKEN: TOKEN,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter((entry): entry is [string, string] => !!entry[1]));
}

/** Spawns `gaffer agent-tools --role <role>` and connects the SDK client to it; stderr is captured. */
async function connect(role: string, env: Record<string, string> = agentEnv()) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, '--role', role],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  (transport.stderr as PassThrough).on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'agent-tools-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const envelopeOf = (result: CallToolResult) => {
  const [content] = result.content;
  expect(content?.type).toBe('text');
  return JSON.parse((content as { text: string }).text) as Record<string, unknown>;
};
/** Lifecycle's verbs of the route plus the gateway's do-tools for its roles (commit: developer, documenter). */
const expectedTools = (route: GatewayRoute) =>
  [...VERBS[route].map((verb) => verb.name), ...doToolsFor(GATEWAY_ROUTE_ROLES[route][0]!)].sort();

describe('gaffer agent-tools (MCP over stdio)', () => {
  it.each([
    ['developer', 'developer', {}],
    ['qa', 'qa', { GAFFER_AGENT_ROLE: 'qa' }],
    ['documenter', 'documenter', { GAFFER_AGENT_ROLE: 'documenter' }],
    ['main_pm', 'main_pm', { GAFFER_AGENT_ROLE: 'main_pm' }],
    ['product_owner', 'board', { GAFFER_AGENT_ROLE: undefined }],
    ['board', 'board', { GAFFER_AGENT_ROLE: 'head_marketing' }],
    ['pr_reviewer', 'pr_reviewer', { GAFFER_AGENT_ROLE: 'pr_reviewer' }],
  ] as const)(
    '--role %s lists exactly the %s verbs plus the do-tools, each with an object schema',
    async (role, route, env) => {
      const { client } = await connect(role, agentEnv(env));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(expectedTools(route));
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.description).toBeTruthy();
      }
    },
  );

  it('hands the gateway’s input schemas over unchanged', async () => {
    const { client } = await connect('developer');
    const { tools } = await client.listTools();
    const plan = tools.find((tool) => tool.name === 'i_will_work_on');
    expect(plan?.inputSchema).toEqual(
      JSON.parse(JSON.stringify(verbInputSchema('developer', 'i_will_work_on'))),
    );
    expect(plan?.inputSchema.required).toEqual(expect.arrayContaining(['task_id', 'plan', 'steps']));
  });

  it('every gateway route has a distinct tool list (no role sees another role’s verbs)', () => {
    const lists = GATEWAY_ROUTES.map((route) => expectedTools(route).join(','));
    expect(new Set(lists).size).toBe(GATEWAY_ROUTES.length);
  });

  it('forwards a verb call to its flow route with the identity headers, token and arguments, and returns the envelope', async () => {
    const { client, stderr } = await connect('developer');
    const args = { task_id: TASK_ID, plan: 'Add the endpoint, then its tests', steps: ['a', 'b'] };
    const result = await call(client, 'i_will_work_on', args);

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/api/v1/flow/developer/i_will_work_on',
      body: args,
    });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-agent-id': 'be-dev-1',
      'x-agent-role': 'developer',
      'x-agent-team': 'backend',
      'x-agent-token': TOKEN,
    });
    expect(request!.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.isError).toBeFalsy();
    expect(envelopeOf(result)).toEqual(successEnvelope(request!));
    expect(stderr()).not.toContain(TOKEN);
  });

  it('sends the agent’s own role for a shared route (board → product_owner)', async () => {
    const { client } = await connect(
      'board',
      agentEnv({ GAFFER_AGENT_ROLE: 'product_owner', GAFFER_AGENT_TEAM: 'board' }),
    );
    await call(client, 'triage', {});
    expect(requests[0]).toMatchObject({ url: '/api/v1/flow/board/triage' });
    expect(requests[0]!.headers).toMatchObject({ 'x-agent-role': 'product_owner', 'x-agent-team': 'board' });
  });

  it('forwards a do-tool call to /api/v1/do with the tool named in the body', async () => {
    const { client } = await connect('qa', agentEnv({ GAFFER_AGENT_ROLE: 'qa' }));
    const args = { task_id: TASK_ID, scope: 'learning', text: 'The fixture needed a real clock' };
    const result = await call(client, 'note', args);
    expect(requests[0]).toMatchObject({ method: 'POST', url: '/api/v1/do', body: { tool: 'note', ...args } });
    expect(requests[0]!.headers['x-agent-token']).toBe(TOKEN);
    expect(result.isError).toBeFalsy();
  });

  it('marks a rejection envelope as a tool error and passes it through whole', async () => {
    const rejection = {
      ok: false,
      error: 'incomplete_input',
      message: 'the plan is missing steps',
      remediate: 'add steps and call i_will_work_on again',
      missing: ['steps'],
      field_hints: { steps: 'a list of concrete steps' },
    };
    answer = () => json(200, rejection);
    const { client } = await connect('developer');
    const result = await call(client, 'i_will_work_on', { task_id: TASK_ID });
    expect(result.isError).toBe(true);
    expect(envelopeOf(result)).toEqual(rejection);
  });

  it('turns a gateway that is down, failing or not speaking JSON into tool errors, and keeps serving', async () => {
    const { client, stderr } = await connect('developer');

    answer = () => json(503, { error: { code: 'unavailable', message: 'database down' } });
    const failing = await call(client, 'give_me_work', {});
    expect(failing.isError).toBe(true);
    expect(envelopeOf(failing)).toMatchObject({
      ok: false,
      error: 'transport_error',
      http_status: 503,
      inner: { error: { code: 'unavailable' } },
    });

    answer = () => ({ status: 200, body: '<html>proxy error</html>' });
    const notJson = await call(client, 'give_me_work', {});
    expect(notJson.isError).toBe(true);
    expect(envelopeOf(notJson)).toMatchObject({
      error: 'transport_error',
      body_excerpt: '<html>proxy error</html>',
    });

    await stopGateway();
    const down = await call(client, 'i_am_idle', {});
    expect(down.isError).toBe(true);
    const envelope = envelopeOf(down);
    expect(envelope).toMatchObject({ ok: false, error: 'transport_error' });
    expect(envelope.message).toContain(`the Gaffer gateway at ${gatewayUrl} could not be reached`);
    expect(JSON.stringify(envelope)).not.toContain(TOKEN);

    expect((await client.listTools()).tools.length).toBe(expectedTools('developer').length);
    expect(stderr()).not.toContain(TOKEN);
  });

  it('refuses a tool the role does not have', async () => {
    const { client } = await connect('qa', agentEnv({ GAFFER_AGENT_ROLE: 'qa' }));
    await expect(call(client, 'i_am_done', { task_id: TASK_ID })).rejects.toThrow(/unknown tool "i_am_done"/);
    await expect(call(client, 'commit', { task_id: TASK_ID })).rejects.toThrow(/unknown tool "commit"/);
    expect(requests).toHaveLength(0);
  });

  it('exits 2 with a clear message on an unknown role or a missing setting', async () => {
    const unknown = await run(process.execPath, [...nodeArgs, '--role', 'wizard'], { env: agentEnv() }).catch(
      (e) => e,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('gaffer agent-tools: unknown role "wizard"');
    expect(unknown.stdout).toBe('');

    const noGateway = await run(process.execPath, [...nodeArgs, '--role', 'qa'], {
      env: agentEnv({ GAFFER_GATEWAY_URL: undefined, GAFFER_AGENT_ROLE: 'qa' }),
    }).catch((e) => e);
    expect(noGateway.code).toBe(2);
    expect(noGateway.stderr).toContain('set GAFFER_GATEWAY_URL');
    expect(noGateway.stderr).not.toContain(TOKEN);
  });
});
