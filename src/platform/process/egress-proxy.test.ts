/**
 * The egress proxy's decisions (names against the list, then the address each resolves to — private
 * and link-local refusals proven on a resolver's answer, never by sending there) and the proxy
 * itself on a unix socket: CONNECT and plain HTTP to an allowed loopback server pass, anything
 * else is a 403 in words and a refusal reported.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEgressProxy,
  decideEgress,
  type EgressRefusal,
  parseAuthority,
  type Resolver,
} from './egress-proxy.js';
import { parseAllowList } from './network-allow.js';

const resolver =
  (answers: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address }));
  };

describe('deciding a destination', () => {
  const policy = {
    allow: parseAllowList(
      'api.example.com:443, *.registry.example, rebind.example, meta.example, intranet.example, 10.0.0.9:8000, localhost:11434, mixed.example',
    ),
    resolve: resolver({
      'api.example.com': ['93.184.216.34'],
      'a.registry.example': ['2606:4700::1111'],
      'rebind.example': ['127.0.0.1'],
      'meta.example': ['169.254.169.254'],
      'intranet.example': ['10.0.0.9'],
      'mixed.example': ['10.1.1.1', '93.184.216.35'],
      localhost: ['::1', '127.0.0.1'],
    }),
    own: new Set(['198.51.100.20']),
  };

  it('lets an allowed name through at the address it resolved to', async () => {
    expect(await decideEgress(policy, 'api.example.com', 443)).toEqual({
      ok: true,
      address: '93.184.216.34',
    });
    expect(await decideEgress(policy, 'A.Registry.Example', 443)).toEqual({
      ok: true,
      address: '2606:4700::1111',
    });
  });

  it('refuses what the list does not name, without resolving it', async () => {
    let asked = false;
    const decision = await decideEgress(
      {
        ...policy,
        resolve: async () => {
          asked = true;
          return [];
        },
      },
      'api.example.com',
      80,
    );
    expect(decision).toMatchObject({ ok: false, kind: 'not_allowed', reason: 'not on the allowlist' });
    expect(await decideEgress(policy, '127.0.0.1', 5432)).toMatchObject({ ok: false, kind: 'not_allowed' });
    expect(asked).toBe(false);
  });

  it('refuses an allowed name that resolves to loopback, link-local or private space', async () => {
    expect(await decideEgress(policy, 'rebind.example', 80)).toMatchObject({
      ok: false,
      kind: 'forbidden_address',
      reason: 'resolves to 127.0.0.1, a loopback address',
    });
    expect(await decideEgress(policy, 'meta.example', 80)).toMatchObject({
      reason: 'resolves to 169.254.169.254, a link-local address',
    });
    expect(await decideEgress(policy, 'intranet.example', 80)).toMatchObject({
      reason: 'resolves to 10.0.0.9, a private address',
    });
  });

  it('lets it through where that address and port are themselves allowed, or the name is localhost', async () => {
    expect(await decideEgress(policy, 'intranet.example', 8000)).toEqual({ ok: true, address: '10.0.0.9' });
    expect(await decideEgress(policy, 'localhost', 11434)).toEqual({ ok: true, address: '::1' });
    expect(await decideEgress(policy, '10.0.0.9', 8000)).toEqual({ ok: true, address: '10.0.0.9' });
  });

  it('skips a forbidden address of several for a public one', async () => {
    expect(await decideEgress(policy, 'mixed.example', 443)).toEqual({ ok: true, address: '93.184.216.35' });
  });

  it('refuses a name that does not resolve', async () => {
    expect(await decideEgress(policy, 'x.registry.example', 443)).toMatchObject({
      ok: false,
      kind: 'unresolvable',
      reason: 'does not resolve (ENOTFOUND)',
    });
  });

  it('reads CONNECT targets', () => {
    expect(parseAuthority('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseAuthority('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseAuthority('example.com')).toBeNull();
    expect(parseAuthority('example.com:70000')).toBeNull();
  });
});

describe('the proxy on its socket', () => {
  let dir: string;
  let origin: Server;
  let originPort: number;
  const refusals: EgressRefusal[] = [];
  let proxy: ReturnType<typeof createEgressProxy>;
  let socket: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gaffer-egress-'));
    origin = createServer((req, res) =>
      res.end(`origin saw ${req.method} ${req.url} host=${req.headers.host}`),
    );
    await new Promise<void>((done) => origin.listen(0, '127.0.0.1', done));
    originPort = (origin.address() as AddressInfo).port;
    proxy = createEgressProxy({
      allow: parseAllowList(`127.0.0.1:${originPort}`),
      onRefusal: (refusal) => refusals.push(refusal),
    });
    socket = join(dir, 'egress.sock');
    await new Promise<void>((done) => proxy.server.listen(socket, done));
  });

  afterAll(async () => {
    await proxy.close();
    origin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends `head` on a new connection to the proxy; resolves with everything it answered. */
  const exchange = (head: string, then?: string) =>
    new Promise<string>((done, fail) => {
      const client = connect(socket);
      let answer = '';
      client.on('data', (chunk) => {
        answer += chunk;
        if (then && answer.includes('200 Connection Established') && !answer.includes('origin saw')) {
          client.write(then);
        }
      });
      client.on('end', () => done(answer));
      client.on('error', fail);
      client.write(head);
    });

  it('tunnels a CONNECT to an allowed address', async () => {
    const answer = await exchange(
      `CONNECT 127.0.0.1:${originPort} HTTP/1.1\r\nhost: 127.0.0.1:${originPort}\r\n\r\n`,
      `GET /inside HTTP/1.1\r\nhost: tunnelled\r\nconnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established/);
    expect(answer).toContain('origin saw GET /inside host=tunnelled');
  });

  it('refuses a CONNECT elsewhere with a 403 in words, and reports it', async () => {
    const before = refusals.length;
    const answer = await exchange('CONNECT 127.0.0.1:5432 HTTP/1.1\r\nhost: 127.0.0.1:5432\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden/);
    expect(answer).toContain('127.0.0.1:5432 — not on the allowlist');
    expect(refusals.slice(before)).toEqual([
      { host: '127.0.0.1', port: 5432, kind: 'not_allowed', reason: 'not on the allowlist' },
    ]);
  });

  it('forwards plain HTTP to an allowed address and refuses it elsewhere', async () => {
    const get = (url: string) =>
      new Promise<{ status: number; body: string }>((done, fail) => {
        const req = request(
          { socketPath: socket, path: url, headers: { host: new URL(url).host } },
          (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => done({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', fail);
        req.end();
      });
    const allowed = await get(`http://127.0.0.1:${originPort}/plain?x=1`);
    expect(allowed).toEqual({ status: 200, body: `origin saw GET /plain?x=1 host=127.0.0.1:${originPort}` });
    const refused = await get('http://169.254.169.254/latest/meta-data/');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('169.254.169.254:80 — not on the allowlist');
    expect(refusals.at(-1)).toMatchObject({ host: '169.254.169.254', port: 80 });
  });
});
