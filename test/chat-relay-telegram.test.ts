/**
 * The Telegram chat relay against a fake Bot API on loopback: CEO-only write-only credentials,
 * every notification relayed (right chat, HTML-escaped, with a link to the panel page it is about)
 * when the flag is effective and credentials are set, nothing otherwise, the producer unaffected by a failing or hanging Bot API, and the bot
 * token in no response body and no log line.
 */

import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Gaffer, REDACTED_LOG_PATHS } from '../src/app.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { insertTask } from './fixtures-task-rows.js';
import { startTestApp } from './support/app.js';
import { createTestStores, type TestPlatform, type TestStores } from './support/stores.js';
import { type FakeTelegram, startFakeTelegram } from './support-fake-telegram.js';

const BOT_TOKEN = '7100200300:AAF-secret_bot-token-never-shown';
const CHAT_ID = '-1001234567890';
const TIMEOUT_MS = 400;

interface RelayApp {
  gaffer: Gaffer;
  platform: TestPlatform;
  logs: string[];
  bodies: string[];
  call(
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let fake: FakeTelegram;
const PUBLIC_URL = 'https://gaffer.example.com';
const config = () => ({ telegramApiUrl: fake.url, telegramTimeoutMs: TIMEOUT_MS, publicUrl: PUBLIC_URL });

/** Stores with the telegram_enabled flag persisted (it takes effect on the next boot). */
async function storesWithFlag(enabled: boolean): Promise<TestStores> {
  const stores = await createTestStores();
  const first = await startTestApp({ stores, config: config() });
  await first.settings.service.set('telegram_enabled', enabled, 'ceo');
  await first.close();
  return stores;
}

/** The whole app with a trace-level logger captured line by line. */
async function bootWithLogs(stores: TestStores): Promise<RelayApp> {
  const logs: string[] = [];
  const bodies: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const platform = await stores.platform({ config: config() });
  const gaffer = await buildApp(platform, {
    logger: { level: 'trace', stream, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' } },
  });
  await gaffer.app.ready();
  const ceo = { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) };
  return {
    gaffer,
    platform,
    logs,
    bodies,
    async call(method, url, payload, headers = ceo) {
      const res = await gaffer.app.inject({
        method,
        url,
        headers,
        ...(payload ? { payload: payload as object } : {}),
      });
      bodies.push(res.body);
      return res;
    },
    async close() {
      await gaffer.app.close();
      await platform.close();
    },
  };
}

const relayOf = (r: RelayApp) => r.gaffer.modules.chatRelay.service;
const notify = (r: RelayApp, subject = 'Deploy <now> & "then"') =>
  r.call('POST', '/api/notifications', {
    type: 'alert',
    priority: 'urgent',
    recipients: ['be-dev-1'],
    subject,
    body: 'Use <b>care</b> & check https://example.com',
  });

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(async () => {
  await fake?.close();
});

describe('chat relay with the flag on', () => {
  let stores: TestStores;
  let r: RelayApp;
  beforeAll(async () => {
    stores = await storesWithFlag(true);
    r = await bootWithLogs(stores);
  });
  afterEach(() => {
    fake.mode = 'ok';
    fake.calls.length = 0;
  });
  afterAll(async () => {
    await r?.close();
    await stores?.dispose();
  });

  it('keeps the credentials write-only, CEO only, both or neither', async () => {
    expect(json(await r.call('GET', '/api/telegram/credentials'))).toEqual({ has_credentials: false });
    const incomplete = await r.call('POST', '/api/telegram/credentials', {
      bot_token: BOT_TOKEN,
      chat_id: '',
    });
    expect(incomplete.statusCode).toBe(400);
    expect(json(incomplete)).toMatchObject({ error: { code: 'credentials_incomplete' } });
    expect(
      (await r.call('POST', '/api/telegram/credentials', { bot_token: '', chat_id: CHAT_ID })).statusCode,
    ).toBe(400);
    expect(
      (await r.call('POST', '/api/telegram/credentials', { bot_token: BOT_TOKEN, chat_id: CHAT_ID, x: 1 }))
        .statusCode,
    ).toBe(422);
    const dev = {
      'x-agent-id': 'be-dev-1',
      'x-agent-role': 'developer',
      'x-agent-team': 'backend',
      'x-agent-token': staticToken(r.platform.secret, { id: 'be-dev-1', role: 'developer', team: 'backend' }),
    };
    expect((await r.call('GET', '/api/telegram/credentials', undefined, dev)).statusCode).toBe(403);
    expect(
      (await r.call('POST', '/api/telegram/credentials', { bot_token: BOT_TOKEN, chat_id: CHAT_ID }, dev))
        .statusCode,
    ).toBe(403);
    expect((await r.call('GET', '/api/telegram/credentials', undefined, {})).statusCode).toBe(401);

    const set = await r.call('POST', '/api/telegram/credentials', { bot_token: BOT_TOKEN, chat_id: CHAT_ID });
    expect(set.statusCode).toBe(200);
    expect(json(set)).toEqual({ has_credentials: true });
    expect(json(await r.call('GET', '/api/telegram/credentials'))).toEqual({ has_credentials: true });
    // Sealed at rest.
    const rows = await r.platform.database.db.execute('select * from chat_relay_credentials');
    expect(JSON.stringify(rows)).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(rows)).not.toContain(CHAT_ID);
  });

  it('relays every notification to the chat, HTML-escaped, after the send', async () => {
    const res = await notify(r);
    expect(res.statusCode).toBe(201);
    await relayOf(r).idle();
    expect(fake.calls).toHaveLength(1);
    const [call] = fake.calls;
    expect(call!.token).toBe(BOT_TOKEN);
    expect(call!.body).toMatchObject({
      chat_id: CHAT_ID,
      parse_mode: 'HTML',
      disable_web_page_preview: true,
    });
    expect(call!.body.text).toContain('<b>Deploy &lt;now&gt; &amp; &quot;then&quot;</b>');
    expect(call!.body.text).toContain('Use &lt;b&gt;care&lt;/b&gt; &amp; check');
    expect(call!.body.text).toContain('be-dev-1');
    // About no task: the notifications page opens.
    expect(call!.body.text).toMatch(new RegExp(`<a href="${PUBLIC_URL}/notifications">Open in Gaffer</a>$`));
  });

  it('links a notification about a task awaiting the CEO to its change, ready to approve', async () => {
    const task = await insertTask(r.platform.database.db, {
      status: 'awaiting_ceo_approval',
      title: 'Ship it',
    });
    const res = await r.call('POST', '/api/notifications', {
      type: 'approval',
      priority: 'high',
      recipients: ['ceo'],
      subject: 'Ship it awaits you',
      body: 'Read the change and approve it.',
      related_task_id: task.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    await relayOf(r).idle();
    expect(fake.calls.at(-1)!.body.text).toContain(
      `<a href="${PUBLIC_URL}/tasks/${task.id}/changes">Open in Gaffer</a>`,
    );
  });

  it('relays re-escalations too', async () => {
    const { id } = json<{ id: string }>(await notify(r, 'Escalate me'));
    await relayOf(r).idle();
    fake.calls.length = 0;
    const later = new Date(Date.now() + (r.platform.config.notificationAckTtlHours + 1) * 3_600_000);
    const report = await r.gaffer.modules.notifications.service.sweep(later);
    expect(report.escalated).toBeGreaterThanOrEqual(1);
    await relayOf(r).idle();
    expect(fake.calls.some((c) => c.body.text.includes('Escalate me') && c.body.text.includes('be-pm'))).toBe(
      true,
    );
    expect(id).toBeTruthy();
  });

  it('never fails the producer when the Bot API answers 500', async () => {
    fake.mode = 'fail';
    const res = await notify(r, 'Sent despite a failing chat');
    expect(res.statusCode).toBe(201);
    await relayOf(r).idle();
    expect(fake.calls).toHaveLength(1);
    const list = await r.call('GET', '/api/notifications', undefined, devHeaders(r));
    expect(
      json<{ notifications: { subject: string }[] }>(list).notifications.map((n) => n.subject),
    ).toContain('Sent despite a failing chat');
    expect(r.logs.some((l) => l.includes('chat relay send failed') && l.includes('HTTP 500'))).toBe(true);
  });

  it('never blocks the producer when the Bot API never answers', async () => {
    fake.mode = 'hang';
    const started = Date.now();
    const res = await notify(r, 'Sent despite a hanging chat');
    expect(res.statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
    await relayOf(r).idle();
    expect(fake.calls).toHaveLength(1);
    expect(r.logs.some((l) => l.includes('chat relay send failed') && l.includes('timed out'))).toBe(true);
    const ack = await r.call(
      'POST',
      `/api/notifications/${json<{ id: string }>(res).id}/ack`,
      undefined,
      devHeaders(r),
    );
    expect(ack.statusCode).toBe(200);
  });

  it('stops relaying once the credentials are cleared', async () => {
    const cleared = await r.call('POST', '/api/telegram/credentials', { bot_token: '', chat_id: '' });
    expect(json(cleared)).toEqual({ has_credentials: false });
    expect((await notify(r)).statusCode).toBe(201);
    await relayOf(r).idle();
    expect(fake.calls).toHaveLength(0);
  });

  it('shows the bot token in no response body and no log line of all of the above', () => {
    expect(r.bodies.length).toBeGreaterThan(10);
    expect(r.logs.length).toBeGreaterThan(10);
    expect(r.bodies.join('\n')).not.toContain(BOT_TOKEN);
    expect(r.logs.join('\n')).not.toContain(BOT_TOKEN);
    expect(r.logs.join('\n')).not.toContain('AAF-secret');
  });
});

describe('chat relay with the flag off', () => {
  it('sends nothing even with credentials set', async () => {
    const stores = await storesWithFlag(false);
    const r = await bootWithLogs(stores);
    try {
      fake.calls.length = 0;
      await r.call('POST', '/api/telegram/credentials', { bot_token: BOT_TOKEN, chat_id: CHAT_ID });
      expect((await notify(r)).statusCode).toBe(201);
      await relayOf(r).idle();
      expect(fake.calls).toHaveLength(0);
    } finally {
      await r.close();
      await stores.dispose();
    }
  });
});

function devHeaders(r: RelayApp) {
  return {
    'x-agent-id': 'be-dev-1',
    'x-agent-role': 'developer',
    'x-agent-team': 'backend',
    'x-agent-token': staticToken(r.platform.secret, { id: 'be-dev-1', role: 'developer', team: 'backend' }),
  };
}

function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T;
}
