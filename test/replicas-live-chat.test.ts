/**
 * The secretary's live chat behind a round-robin proxy: two real `gaffer start` processes on one
 * PostgreSQL database and one Redis, the CEO's event stream held by one and the messages sent to the
 * other. The reply, generated where the message landed, streams to the stream on the first; while it
 * runs a message to either replica is refused with 409 `turn_in_progress`, a stream opened late on the
 * other replica starts with the text streamed so far, and a stop sent to the stream's replica
 * cancels the model call on the replica that makes it and closes the stream.
 *
 * Needs the real servers: skipped without GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { type JsonAnswer, type Replica, type Replicas, startReplicas } from './support/replicas.js';
import { openSse, type SseClient, type SseEvent } from './support/sse-client.js';
import { createTestStores, type TestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';

const LIVE = '/api/secretary/live';

describe.skipIf(!testDatabaseUrl || !testRedisUrl)(
  'a live chat across two gaffer start replicas (needs GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL)',
  () => {
    let stores: TestStores;
    let cluster: Replicas;
    let fake: FakeLlm;
    let streamSide: Replica;
    let messageSide: Replica;
    let sid: string;
    const streams: SseClient[] = [];

    beforeAll(async () => {
      stores = await createTestStores();
      fake = await startFakeLlm();
      cluster = await startReplicas(2, stores);
      [streamSide, messageSide] = cluster.replicas as [Replica, Replica];
      const provider = await streamSide.asCeo('/api/providers', {
        body: {
          name: 'fake',
          kind: 'openai',
          base_url: `${fake.url}/v1`,
          default_model: 'fake-small',
          api_key: 'test-key',
        },
      });
      expect(provider.status, await provider.text()).toBe(201);
      const routed = await streamSide.asCeo('/api/providers/routing', {
        method: 'PUT',
        body: { global: { provider: 'fake' } },
      });
      expect(routed.status).toBe(200);
    }, 120_000);
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await cluster?.close();
      await stores?.dispose();
      await fake?.close();
    }, 60_000);

    const answer = async (response: Response) => ({
      status: response.status,
      body: (await response.json()) as JsonAnswer,
    });
    const stream = async (replica: Replica) => {
      const opened = await openSse(`${replica.base}${LIVE}/${sid}/stream`, cluster.ceoHeaders);
      streams.push(opened);
      await opened.waitFor((e) => e.event === 'ready', 10_000);
      return opened;
    };
    const text = (events: SseEvent[]) =>
      events
        .filter((e) => e.event === 'text_delta')
        .map((e) => String(e.data.text))
        .join('');

    it('a message sent to one replica streams its reply to the stream another replica holds', async () => {
      const started = await answer(await streamSide.asCeo(`${LIVE}/start`, { body: {} }));
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      sid = started.body.session_id as string;
      const held = await stream(streamSide);
      const mark = held.events.length;

      fake.script({
        kind: 'reply',
        text: ['Hello', ' from', ' the', ' other', ' replica.'],
        chunkDelayMs: 20,
      });
      const sent = await messageSide.asCeo(`${LIVE}/${sid}/messages`, { body: { text: 'Who answers?' } });
      expect(sent.status, await sent.text()).toBe(202);

      const user = await held.waitFor((e) => e.event === 'user', 10_000, mark);
      expect(user.data).toEqual({ text: 'Who answers?' });
      await held.waitFor((e) => e.event === 'turn_end', 10_000, mark);
      expect(text(held.events.slice(mark))).toBe('Hello from the other replica.');
      // The reply is persisted: a stream opened anywhere replays it.
      const replay = await stream(messageSide);
      expect(text(replay.events)).toBe('');
      expect(replay.events.filter((e) => e.event === 'text').map((e) => e.data.text)).toEqual([
        'Hello from the other replica.',
      ]);
      replay.close();
    });

    it('one turn at a time on both; a late stream starts with the text so far; a stop on either cancels it', async () => {
      const held = streams[0]!;
      const mark = held.events.length;
      fake.script({ kind: 'reply', text: ['Thinking', ' it', ' over'], hangAfterChunks: 1 });
      const sent = await messageSide.asCeo(`${LIVE}/${sid}/messages`, { body: { text: 'Take your time.' } });
      expect(sent.status).toBe(202);
      await held.waitFor((e) => e.event === 'text_delta', 10_000, mark);
      const call = fake.requests.at(-1)!;

      for (const replica of [streamSide, messageSide]) {
        const refused = await answer(
          await replica.asCeo(`${LIVE}/${sid}/messages`, { body: { text: 'Are you there?' } }),
        );
        expect(refused.status, `replica ${replica.index}`).toBe(409);
        expect(refused.body.error.code).toBe('turn_in_progress');
        const status = await answer(await replica.asCeo(`${LIVE}/${sid}/status`));
        expect(status.body, `replica ${replica.index}`).toMatchObject({ status: 'active', busy: true });
      }
      const late = await stream(streamSide);
      expect(text(late.events)).toBe('Thinking');
      expect(late.events.find((e) => e.event === 'ready')?.data).toMatchObject({ busy: true });

      const stopped = await streamSide.asCeo(`${LIVE}/${sid}/stop`, { method: 'POST' });
      expect(stopped.status, await stopped.text()).toBe(200);
      await call.disconnected; // the model call on the message's replica was cancelled
      for (const open of [held, late]) {
        await open.closed;
        expect(open.events.at(-1)).toMatchObject({ event: 'ended', data: { reason: 'stopped' } });
      }
      const ended = await answer(await messageSide.asCeo(`${LIVE}/${sid}/status`));
      expect(ended.body).toMatchObject({ status: 'ended', ended_reason: 'stopped', busy: false });
    });
  },
);
