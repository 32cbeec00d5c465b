/**
 * A run's network through the real `bwrap`: inside, the gateway door answers at GAFFER_GATEWAY_URL
 * (only `/api/v1/**`, and as the run's agent whatever the request claims), a loopback model server
 * the list allows answers at its own address, the egress proxy refuses the rest in words and
 * reports each refusal — and the host's loopback services (a stand-in PostgreSQL) are not there.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EgressRefusal } from './egress-proxy.js';
import { openRunNetwork, type RunNetwork } from './run-network.js';
import { probeSandbox, sandboxArgv } from './sandbox.js';

const available = await probeSandbox();
if (!available.ok) console.warn(`SKIPPED: the run network suite needs bubblewrap: ${available.reason}`);

const listen = async <T extends Server | TcpServer>(server: T): Promise<number> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
};

/** What the program inside tries, printed as one JSON line. */
const HUNT = String.raw`
const net = require('node:net');
const http = require('node:http');
const [pgPort, modelPort] = process.argv.slice(1).map(Number);
const tcp = (port, host) => new Promise((done) => {
  const socket = net.connect(port, host);
  socket.on('connect', () => { socket.destroy(); done('reached'); });
  socket.on('error', (error) => done(error.code));
});
const get = (url, options = {}) => new Promise((done) => {
  const req = http.request(url, options, (res) => {
    let body = '';
    res.on('data', (chunk) => (body += chunk));
    res.on('end', () => done({ status: res.statusCode, body }));
  });
  req.on('error', (error) => done({ error: error.code }));
  req.end(options.body);
});
const proxy = new URL(process.env.HTTPS_PROXY);
const connectVia = (target) => new Promise((done) => {
  const socket = net.connect(Number(proxy.port), proxy.hostname);
  let answer = '';
  socket.on('data', (chunk) => { answer += chunk; if (answer.includes('\r\n\r\n')) { socket.destroy(); done(answer.split('\r\n')[0] + ' | ' + answer.split('\r\n\r\n')[1]); } });
  socket.on('error', (error) => done(error.code));
  socket.write('CONNECT ' + target + ' HTTP/1.1\r\nhost: ' + target + '\r\n\r\n');
});
(async () => {
  const gateway = process.env.GAFFER_GATEWAY_URL;
  const result = {
    postgres: await tcp(pgPort, '127.0.0.1'),
    gatewayVerb: await get(gateway + '/api/v1/flow/developer/claim', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agent-id': 'ceo', 'x-agent-role': 'ceo', 'x-agent-token': 'forged', cookie: 'gaffer_session=stolen' },
      body: '{}',
    }),
    metrics: await get(gateway + '/metrics'),
    dotdot: await get(gateway + '/api/v1/../../metrics'),
    tasks: await get(gateway + '/api/tasks'),
    model: await get('http://127.0.0.1:' + modelPort + '/v1/models'),
    connectPostgres: await connectVia('127.0.0.1:' + pgPort),
    connectElsewhere: await connectVia('evil.example:443'),
    gatewayToken: process.env.GAFFER_AGENT_TOKEN ?? null,
  };
  console.log('RESULT ' + JSON.stringify(result));
})();
`;

describe.skipIf(!available.ok)('a run with a network of its own', () => {
  let root: string;
  let gateway: Server;
  let model: Server;
  let postgres: TcpServer;
  let ports: { gateway: number; model: number; postgres: number };
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const refusals: EgressRefusal[] = [];
  let network: RunNetwork;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'gaffer-run-network-'));
    mkdirSync(join(root, 'work'));
    mkdirSync(join(root, 'home'));
    gateway = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.setHeader('content-type', 'application/json');
      res.end('{"status":"ok"}');
    });
    model = createServer((_req, res) => res.end('model here'));
    postgres = createTcpServer((socket) => socket.end());
    ports = { gateway: await listen(gateway), model: await listen(model), postgres: await listen(postgres) };
    network = await openRunNetwork({
      gateway: {
        url: `http://127.0.0.1:${ports.gateway}`,
        identity: { 'x-agent-id': 'dev-uuid', 'x-agent-role': 'developer', 'x-agent-token': 'the-run-token' },
      },
      allow: [`127.0.0.1:${ports.model}`],
      onRefusal: (refusal) => refusals.push(refusal),
    });
  });

  afterAll(async () => {
    await network?.close();
    for (const server of [gateway, model, postgres]) server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reaches its gateway as its own agent and its model, and nothing else', async () => {
    // The Node.js running this test, wherever it is installed (a cached Node 24 outside /usr in CI).
    const node = dirname(dirname(realpathSync(process.execPath)));
    const argv = sandboxArgv(
      { workspace: join(root, 'work'), home: join(root, 'home'), readable: [network.dir, node] },
      network.wrap([process.execPath, '-e', HUNT, String(ports.postgres), String(ports.model)]),
    );
    const out = await new Promise<string>((done) =>
      execFile(
        argv[0]!,
        argv.slice(1),
        { env: { PATH: '/usr/bin:/bin', ...network.env } },
        (_error, stdout, stderr) => done(`${stdout}${stderr}`),
      ),
    );
    const result = JSON.parse(/^RESULT (.*)$/m.exec(out)?.[1] ?? 'null');
    expect(result, out).not.toBeNull();

    expect(result.postgres).toBe('ECONNREFUSED');
    expect(result.gatewayVerb).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/api/v1/flow/developer/claim');
    expect(seen[0]!.headers).toMatchObject({
      'x-agent-id': 'dev-uuid',
      'x-agent-role': 'developer',
      'x-agent-token': 'the-run-token',
    });
    expect(seen[0]!.headers.cookie).toBeUndefined();
    for (const path of ['metrics', 'dotdot', 'tasks'] as const) {
      expect(result[path].status, path).toBe(404);
      expect(result[path].body).toContain('only the agent gateway');
    }
    expect(result.model).toEqual({ status: 200, body: 'model here' });
    expect(result.connectPostgres).toBe(
      `HTTP/1.1 403 Forbidden | blocked by Gaffer's agent network fence: 127.0.0.1:${ports.postgres} — not on the allowlist\n`,
    );
    expect(result.connectElsewhere).toMatch(
      /^HTTP\/1\.1 403 Forbidden \| .*evil\.example:443 — not on the allowlist/,
    );
    expect(result.gatewayToken).toBeNull();
    expect(refusals).toEqual([
      { host: '127.0.0.1', port: ports.postgres, kind: 'not_allowed', reason: 'not on the allowlist' },
      { host: 'evil.example', port: 443, kind: 'not_allowed', reason: 'not on the allowlist' },
    ]);
  });
});
