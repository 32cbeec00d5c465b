/**
 * The live streams end to end: a real `ws` client against a listening app. Admission (unknown
 * agents, tokens), the `connected` frame, ping/pong, routing of bus events to the right sockets,
 * the idle timeout, slow-client dropping, and — with PostgreSQL and Redis — delivery across replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { createSession, SESSION_COOKIE } from '../src/platform/http/auth/sessions.js';
import { expiringToken, staticToken } from '../src/platform/http/auth/tokens.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createTestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';
import { connect, framesWithin, listen, openStream, pause, type StreamClient } from './support/ws-client.js';

const DEV = {
  id: '00000000-0000-0000-0001-000000000001',
  slug: 'be-dev-1',
  role: 'developer',
  team: 'backend',
};
const PM = { id: '00000000-0000-0000-0001-000000000004', slug: 'be-pm', role: 'cell_pm', team: 'backend' };
const UNKNOWN_UUID = '11111111-2222-3333-4444-555555555555';

describe('streams on one app', () => {
  let t: TestApp;
  let base: string;
  const open: StreamClient[] = [];
  const track = async (url: string, protocols?: string[]) => {
    const opened = await connect(url, protocols);
    open.push(opened.client);
    return opened;
  };

  beforeAll(async () => {
    t = await startTestApp();
    base = await listen(t);
  });
  afterAll(async () => {
    for (const client of open) client.ws.terminate();
    await t.close();
  });

  it('sends `connected` first on every endpoint, with the agent where there is one', async () => {
    expect((await track(`${base}/ws/system`)).connected).toEqual({ type: 'connected', stream: 'system' });
    expect((await track(`${base}/ws/agents/${DEV.slug}?viewer_id=${PM.slug}`)).connected).toEqual({
      type: 'connected',
      stream: 'agents',
      agent_id: DEV.id,
      viewer_id: PM.id,
    });
    expect((await track(`${base}/ws/agents/${DEV.id}?agent_id=${DEV.id}`)).connected).toMatchObject({
      agent_id: DEV.id,
    });
    expect((await track(`${base}/ws/notifications/${PM.id}?agent_id=${PM.slug}`)).connected).toEqual({
      type: 'connected',
      stream: 'notifications',
      agent_id: PM.id,
    });
  });

  it('answers ping with pong on all three endpoints, JSON and bare text', async () => {
    for (const path of [
      '/ws/system',
      `/ws/agents/${DEV.id}?viewer_id=${DEV.id}`,
      `/ws/notifications/${DEV.id}?agent_id=${DEV.id}`,
    ]) {
      const { client } = await track(`${base}${path}`);
      client.ws.send(JSON.stringify({ type: 'ping' }));
      expect(await client.next()).toEqual({ type: 'pong' });
      client.ws.send('ping');
      expect(await client.next()).toBe('pong');
      client.ws.send('{"type":"subscribe"}');
      client.ws.send('not json');
      expect(await framesWithin(client, 100)).toEqual([]);
    }
  });

  it('refuses unknown and malformed agents before accept (HTTP 403/422, never a connected frame)', async () => {
    const refused = [
      `/ws/agents/${UNKNOWN_UUID}?viewer_id=${DEV.id}`,
      `/ws/agents/${DEV.id}?viewer_id=${UNKNOWN_UUID}`,
      `/ws/agents/${DEV.id}?viewer_id=not%20a%20uuid!`,
      `/ws/agents/00000000-0000-0000-0001?viewer_id=${DEV.id}`,
      `/ws/agents/${DEV.id}`,
      `/ws/notifications/nobody?agent_id=${DEV.id}`,
      `/ws/notifications/${DEV.id}?agent_id=nobody`,
      `/ws/notifications/${DEV.id}`,
    ];
    for (const path of refused) {
      expect(await openStream(`${base}${path}`), path).toEqual({ kind: 'refused', status: 403 });
    }
    expect(await openStream(`${base}/ws/agents/${DEV.id}?viewer_id=${'x'.repeat(200)}`)).toEqual({
      kind: 'refused',
      status: 422,
    });
  });

  it('refuses a retired agent as the watched agent or the viewer', async () => {
    const retired = await t.app.inject({
      method: 'POST',
      url: '/api/agents/ux-dev-2/retire',
      headers: t.ceoHeaders,
    });
    expect(retired.statusCode, retired.body).toBe(200);
    for (const path of [
      `/ws/notifications/ux-dev-2?agent_id=ux-dev-2`,
      `/ws/agents/${DEV.id}?viewer_id=ux-dev-2`,
    ]) {
      expect(await openStream(`${base}${path}`), path).toEqual({ kind: 'refused', status: 403 });
    }
  });

  it('verifies a presented token: bad ones are refused, good ones accepted', async () => {
    const devToken = staticToken(t.platform.secret, DEV);
    const ceoToken = staticToken(t.platform.secret, CEO_IDENTITY);
    const expiring = expiringToken(t.platform.secret, DEV, 600);
    const agents = `${base}/ws/agents/${DEV.id}?viewer_id=${DEV.id}`;
    expect(await openStream(`${agents}&token=${'0'.repeat(64)}`)).toEqual({ kind: 'refused', status: 401 });
    expect(await openStream(`${base}/ws/system?token=${devToken}`)).toEqual({ kind: 'refused', status: 401 });
    expect(await openStream(agents, ['gaffer', `${expiring}x`])).toEqual({ kind: 'refused', status: 401 });
    const someoneElse = expiringToken(t.platform.secret, PM, 600);
    expect(await openStream(`${agents}&token=${someoneElse}`)).toEqual({ kind: 'refused', status: 401 });
    const expired = expiringToken(t.platform.secret, DEV, 60, new Date(Date.now() - 3_600_000));
    expect(await openStream(`${agents}&token=${expired}`)).toEqual({ kind: 'refused', status: 401 });
    expect(await openStream(`${agents}&token=${staticToken(t.platform.secret, PM)}`)).toEqual({
      kind: 'refused',
      status: 401,
    });
    expect((await track(`${agents}&token=${devToken}`)).connected).toMatchObject({ type: 'connected' });
    expect((await track(`${agents}&token=${expiring}`)).connected).toMatchObject({ type: 'connected' });
    expect((await track(`${base}/ws/system?token=${ceoToken}`)).connected).toMatchObject({
      type: 'connected',
    });
    const viaProtocol = await track(agents, ['gaffer', devToken]);
    expect(viaProtocol.client.ws.protocol).toBe('gaffer');
    expect(viaProtocol.connected).toMatchObject({ type: 'connected' });
  });

  it('routes each event to its own sockets only', async () => {
    const system = (await track(`${base}/ws/system`)).client;
    const dev = (await track(`${base}/ws/agents/${DEV.slug}?viewer_id=${DEV.slug}`)).client;
    const pm = (await track(`${base}/ws/agents/${PM.slug}?viewer_id=${PM.slug}`)).client;
    const devInbox = (await track(`${base}/ws/notifications/${DEV.slug}?agent_id=${DEV.slug}`)).client;
    const pmInbox = (await track(`${base}/ws/notifications/${PM.slug}?agent_id=${PM.slug}`)).client;
    const bus = t.platform.bus;

    const hit = {
      provider: 'anthropic',
      kind: 'rate_limited' as const,
      affected_agents: [DEV.slug],
      hit_at: '2026-01-01T00:00:00.000Z',
      resume_at: '2026-01-01T00:00:30.000Z',
      retry_after_seconds: 30,
      probe_failures: 0,
    };
    await bus.publish('RATE_LIMIT_HIT', hit);
    await bus.publish('AGENT_SPAWNED', { agent_id: DEV.id, task_id: null, detail: null });
    const output = {
      agent_id: DEV.id,
      task_id: null,
      run_id: 'r1',
      seq: 1,
      stream: 'stdout',
      text: 'hello',
    } as const;
    await bus.publish('AGENT_OUTPUT', output);
    await bus.publish('NOTIFICATION_SENT', {
      notification_id: 'n1',
      recipient_id: PM.id,
      type: 'review_requested',
      priority: 'high',
      subject: 'please review',
      ack_required: true,
    });
    await bus.publish('NOTIFICATION_ACKED', { notification_id: 'n1', recipient_id: PM.id });

    expect(await framesWithin(system, 300)).toEqual([{ type: 'RATE_LIMIT_HIT', ...hit }]);
    expect(await framesWithin(dev, 0)).toEqual([
      { type: 'AGENT_SPAWNED', agent_id: DEV.id, task_id: null, detail: null },
      { type: 'AGENT_OUTPUT', ...output },
    ]);
    expect(await framesWithin(pm, 0)).toEqual([]);
    expect(await framesWithin(devInbox, 0)).toEqual([]);
    expect(await framesWithin(pmInbox, 0)).toEqual([
      {
        type: 'NOTIFICATION_SENT',
        notification_id: 'n1',
        recipient_id: PM.id,
        notification_type: 'review_requested',
        priority: 'high',
        subject: 'please review',
        ack_required: true,
      },
      { type: 'NOTIFICATION_ACKED', notification_id: 'n1', recipient_id: PM.id },
    ]);
  });

  it('caps the a2a.message excerpt at 240 characters plus one ellipsis', async () => {
    const system = (await track(`${base}/ws/system`)).client;
    const message = (body: string) => ({
      conversation_id: 'c1',
      message_id: 'm1',
      task_id: null,
      sender_slug: DEV.slug,
      recipient_slug: PM.slug,
      body,
    });
    await t.platform.bus.publish('A2A_MESSAGE_SENT', message('e'.repeat(240)));
    await t.platform.bus.publish('A2A_MESSAGE_SENT', message(`${'l'.repeat(239)} and then some more`));
    const first = (await system.next()) as Record<string, unknown>;
    const second = (await system.next()) as Record<string, unknown>;
    expect(first).toMatchObject({
      type: 'a2a.message',
      sender_slug: DEV.slug,
      body_excerpt: 'e'.repeat(240),
    });
    expect(first.timestamp).toEqual(expect.any(String));
    expect(second.body_excerpt).toBe(`${'l'.repeat(239)}…`);
    expect(second).not.toHaveProperty('body');
  });

  it('counts sockets per endpoint and forgets closed ones', async () => {
    const before = t.modules.streams.service.counts();
    const { client } = await track(`${base}/ws/system`);
    expect(t.modules.streams.service.counts().system).toBe(before.system + 1);
    client.close();
    await client.closed;
    await pause(50);
    expect(t.modules.streams.service.counts()).toEqual(before);
  });
});

describe('wsRequireToken', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({ config: { wsRequireToken: true } });
    base = await listen(t);
  });
  afterAll(() => t.close());

  it('refuses a socket without a token and accepts one with a good token', async () => {
    expect(await openStream(`${base}/ws/system`)).toEqual({ kind: 'refused', status: 401 });
    expect(await openStream(`${base}/ws/agents/${DEV.id}?viewer_id=${DEV.id}`)).toEqual({
      kind: 'refused',
      status: 401,
    });
    const token = staticToken(t.platform.secret, DEV);
    const { client, connected } = await connect(
      `${base}/ws/agents/${DEV.id}?viewer_id=${DEV.id}&token=${token}`,
    );
    expect(connected).toMatchObject({ type: 'connected', agent_id: DEV.id });
    const system = await connect(`${base}/ws/system`, [
      'gaffer',
      staticToken(t.platform.secret, CEO_IDENTITY),
    ]);
    expect(system.connected).toMatchObject({ type: 'connected' });
    client.ws.terminate();
    system.client.ws.terminate();
  });

  it("takes the panel's signed-in session instead of a token, and refuses an unknown or expired one", async () => {
    const { db } = t.platform.database;
    const now = t.platform.clock.now();
    const live = await createSession(db, CEO_IDENTITY, new Date(now.getTime() + 3_600_000));
    const expired = await createSession(db, CEO_IDENTITY, new Date(now.getTime() - 1000));
    const cookie = (id: string) => ({ cookie: `${SESSION_COOKIE}=${id}` });

    const system = await connect(`${base}/ws/system`, undefined, cookie(live));
    expect(system.connected).toMatchObject({ type: 'connected', stream: 'system' });
    const watched = await connect(`${base}/ws/agents/${DEV.id}?viewer_id=ceo`, undefined, cookie(live));
    expect(watched.connected).toMatchObject({ type: 'connected', agent_id: DEV.id });
    // As with a token: the CEO's session may watch as any viewer, another's only as itself.
    const developer = await createSession(
      db,
      { ...DEV, role: 'developer' },
      new Date(now.getTime() + 3_600_000),
    );
    const asCeo = `${base}/ws/agents/${DEV.id}?viewer_id=ceo`;
    expect(await openStream(asCeo, undefined, cookie(developer))).toEqual({ kind: 'refused', status: 401 });
    for (const id of [expired, 'not-a-session']) {
      expect(await openStream(`${base}/ws/system`, undefined, cookie(id))).toEqual({
        kind: 'refused',
        status: 401,
      });
    }
    system.client.ws.terminate();
    watched.client.ws.terminate();
  });
});

describe('idle sockets and slow readers', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({ config: { wsIdleTimeoutSeconds: 5, wsSendQueueLimit: 8 } });
    base = await listen(t);
  });
  afterAll(() => t.close());

  it('closes a socket after the idle timeout, but not one that keeps talking', async () => {
    const idle = (await connect(`${base}/ws/system`)).client;
    const chatty = (await connect(`${base}/ws/system`)).client;
    const started = Date.now();
    const talk = setInterval(() => chatty.ws.send('anything'), 1000);
    const closed = await idle.closed;
    clearInterval(talk);
    expect(closed.code).toBe(1001);
    expect(closed.reason).toBe('idle timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(chatty.ws.readyState).toBe(WebSocket.OPEN);
    chatty.ws.terminate();
  }, 15_000);

  it('drops a client that does not read while a normal client keeps receiving', async () => {
    const slow = (await connect(`${base}/ws/agents/${DEV.id}?viewer_id=${DEV.id}`)).client;
    const normal = (await connect(`${base}/ws/agents/${DEV.id}?viewer_id=${DEV.id}`)).client;
    const service = t.modules.streams.service;
    expect(service.counts().agents).toBe(2);
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const text = 'o'.repeat(64 * 1024);
    let received = 0;
    normal.ws.on('message', () => {
      received += 1;
    });
    const floods = 300;
    for (let i = 0; i < floods; i += 1) {
      await t.platform.bus.publish('AGENT_OUTPUT', {
        agent_id: DEV.id,
        task_id: null,
        run_id: 'r1',
        seq: i,
        stream: 'stdout',
        text,
      });
      await pause(2); // a steady stream a reading client keeps up with
    }
    const deadline = Date.now() + 10_000;
    while (received < floods && Date.now() < deadline) await pause(20);
    expect(received).toBe(floods);
    expect(service.counts().agents).toBe(1);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await slow.closed;
    expect([1013, 1006]).toContain(closed.code);
    normal.ws.terminate();
  }, 20_000);
});

describe.skipIf(!testRedisUrl || !testDatabaseUrl)('across replicas (PostgreSQL + Redis)', () => {
  it('an event published on one replica reaches a socket on the other exactly once', async () => {
    const stores = await createTestStores();
    const one = await startTestApp({ stores });
    const two = await startTestApp({ stores });
    try {
      const onOne = (await connect(`${await listen(one)}/ws/system`)).client;
      const onTwo = (await connect(`${await listen(two)}/ws/system`)).client;
      const lifted = {
        provider: 'anthropic',
        resumed_agents: [DEV.slug],
        lifted_at: '2026-01-01T00:01:00.000Z',
      };
      await one.platform.bus.publish('RATE_LIMIT_LIFTED', lifted);
      const expected = { type: 'RATE_LIMIT_LIFTED', ...lifted };
      expect(await framesWithin(onTwo, 500)).toEqual([expected]);
      expect(await framesWithin(onOne, 0)).toEqual([expected]);
      onOne.ws.terminate();
      onTwo.ws.terminate();
    } finally {
      await one.close();
      await two.close();
      await stores.dispose();
    }
  });
});
