/** Shared steps of the live-chat and retrieval suites: a listening app and the fake provider routed for everyone. */
import type { TestApp } from './app.js';
import type { FakeLlm } from './fake-llm/index.js';

export async function listenHttp(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

/** Adds the fake provider through /api/providers and routes it globally. */
export async function routeFakeProvider(t: TestApp, fake: FakeLlm, key = 'test-key'): Promise<void> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/providers',
    headers: t.ceoHeaders,
    payload: {
      name: 'fake',
      kind: 'openai',
      base_url: `${fake.url}/v1`,
      default_model: 'fake-small',
      api_key: key,
    },
  });
  if (created.statusCode !== 201) throw new Error(`provider: ${created.body}`);
  const routed = await t.app.inject({
    method: 'PUT',
    url: '/api/providers/routing',
    headers: t.ceoHeaders,
    payload: { global: { provider: 'fake' } },
  });
  if (routed.statusCode !== 200) throw new Error(`routing: ${routed.body}`);
}
