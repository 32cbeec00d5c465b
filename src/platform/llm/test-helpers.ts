/** Test helpers of the adapter suites: a client on the fake provider, draining a stream. */
import type { FakeLlm } from '../../../test/support/fake-llm/index.js';
import { createModelClient } from './factory.js';
import type { ModelClient, ModelClientConfig, ModelStreamEvent, ProviderKind } from './types.js';

export function clientOn(
  fake: FakeLlm,
  kind: ProviderKind,
  overrides: Partial<ModelClientConfig> = {},
): ModelClient {
  return createModelClient({
    kind,
    baseUrl: kind === 'openai' ? `${fake.url}/v1` : fake.url,
    apiKey: 'test-key',
    model: 'fake-small',
    timeoutMs: 10_000,
    ...overrides,
  });
}

export async function drain(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, it succeeded');
}
