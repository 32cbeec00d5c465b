/**
 * A fake Telegram Bot API on loopback: `POST /bot<token>/sendMessage` answers
 * `{ok: true, result: {message_id, chat, date, text}}` and records the call. Scriptable to answer
 * 500 (`mode = 'fail'`) or never answer (`mode = 'hang'`, until the client gives up).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TelegramCall {
  token: string;
  body: { chat_id: string; text: string; parse_mode?: string; disable_web_page_preview?: boolean };
}

export interface FakeTelegram {
  /** Base URL to hand in as `telegramApiUrl`. */
  readonly url: string;
  readonly calls: TelegramCall[];
  mode: 'ok' | 'fail' | 'hang';
  close(): Promise<void>;
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const calls: TelegramCall[] = [];
  const hanging = new Set<ServerResponse>();
  let messageId = 0;
  const fake = { mode: 'ok' as FakeTelegram['mode'] };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const match = /^\/bot([^/]+)\/sendMessage$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error_code: 404, description: 'Not Found' }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TelegramCall['body'];
    calls.push({ token: decodeURIComponent(match[1]!), body });
    if (fake.mode === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fake.mode === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error_code: 500, description: 'Internal Server Error' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        ok: true,
        result: {
          message_id: ++messageId,
          chat: { id: body.chat_id, type: 'group' },
          date: Math.floor(Date.now() / 1000),
          text: body.text,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get mode() {
      return fake.mode;
    },
    set mode(value) {
      fake.mode = value;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
