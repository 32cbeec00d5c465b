/**
 * How gateway answers become tool results, against a loopback HTTP server standing in for the
 * gateway: an envelope passes through whole, refusals of the HTTP layer (401, 504 timeout envelope)
 * are errors as they are, and a gateway mounted under a path prefix is reached there.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayConnection } from './connection.js';
import { forwardToGateway } from './forward.js';

let server: Server;
let reply: { status: number; body: unknown };
let seen: string[];
let connection: GatewayConnection;

beforeEach(async () => {
  seen = [];
  server = createServer((req, res) => {
    seen.push(req.url!);
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  connection = {
    baseUrl: `http://127.0.0.1:${port}/gaffer`,
    agentId: 'qa-1',
    agentRole: 'qa',
    agentTeam: '',
    token: 't',
  };
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const verb = { kind: 'verb', route: 'qa', verb: 'pass' } as const;

describe('forwardToGateway', () => {
  it('posts under the gateway base path and passes a success envelope through', async () => {
    reply = { status: 200, body: { ok: true, status: 'awaiting_documentation', error: null } };
    const outcome = await forwardToGateway(connection, verb, { task_id: 'x' });
    expect(seen).toEqual(['/gaffer/api/v1/flow/qa/pass']);
    expect(outcome).toEqual({ envelope: reply.body, isError: false });
  });

  it('treats an authentication refusal and a timeout envelope as errors, unchanged', async () => {
    reply = {
      status: 401,
      body: { error: { code: 'invalid_token', message: 'bad token' }, correlation_id: 'c' },
    };
    expect(await forwardToGateway(connection, verb, {})).toEqual({ envelope: reply.body, isError: true });

    reply = { status: 504, body: { ok: false, error: 'gateway_timeout', message: 'took too long' } };
    expect(await forwardToGateway(connection, verb, {})).toEqual({ envelope: reply.body, isError: true });
  });

  it('reports a JSON answer that is not an object as a transport error', async () => {
    reply = { status: 200, body: ['not', 'an', 'envelope'] };
    const outcome = await forwardToGateway(connection, { kind: 'do', tool: 'evidence' }, {});
    expect(seen).toEqual(['/gaffer/api/v1/do']);
    expect(outcome).toMatchObject({
      isError: true,
      envelope: { error: 'transport_error', http_status: 200 },
    });
  });
});
