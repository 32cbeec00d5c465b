/**
 * The whole app on test stores plus a runtime with the test's own options (fake agent CLIs), the
 * bus events it published, and spawn specs for roster agents.
 * Test-only; nothing imports it at run time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityHeaders } from '../../../test/support/app.js';
import { createTestStores, type TestPlatform, type TestStores } from '../../../test/support/stores.js';
import { buildApp, type Gaffer } from '../../app.js';
import type { Config } from '../../config.js';
import type { BusEvent } from '../../platform/bus/index.js';
import { CEO_IDENTITY } from '../../platform/http/auth/identity.js';
import { staticToken } from '../../platform/http/auth/tokens.js';
import { createScheduler, type Scheduler } from '../../platform/scheduler/index.js';
import { rosterMember } from '../agents/index.js';
import type { SpawnSpec } from './contract.js';
import { createRuntimeModule, type RuntimeModule, type RuntimeModuleOptions } from './index.js';

export interface RuntimeTestApp extends Gaffer {
  platform: TestPlatform;
  stores: TestStores;
  runtime: RuntimeModule;
  /** The scheduler the test runtime's loops are registered on; it never starts (use runNow). */
  scheduler: Scheduler;
  /** Every bus event received so far, in order. */
  events: BusEvent[];
  /** A temp directory standing in for a task worktree. */
  workspace: string;
  ceoHeaders: Record<string, string>;
  headersFor(id: string, role: string, team?: string): Record<string, string>;
  /** A spawn spec for a roster agent (by slug) in the test workspace. */
  specFor(slug: string, overrides?: Partial<SpawnSpec>): SpawnSpec;
  close(): Promise<void>;
}

/** `config` goes over the test stores' (say, GAFFER_AGENT_SANDBOX_READ naming the fake agents' folder). */
export async function startRuntimeApp(
  options: RuntimeModuleOptions = {},
  config: Partial<Config> = {},
): Promise<RuntimeTestApp> {
  const stores = await createTestStores();
  const platform = await stores.platform({ config });
  const gaffer = await buildApp(platform, { logger: false });
  // A runtime with the test's own options beside the app's (the app's /api/stream routes read the
  // same tables); its prune loop goes to a scheduler of its own that never starts.
  const idleScheduler = createScheduler({
    db: platform.database.db,
    locks: platform.locks,
    log: gaffer.app.log,
  });
  const deps = { agents: gaffer.modules.agents, settings: gaffer.settings, scheduler: idleScheduler };
  const runtime = createRuntimeModule({ platform, deps }, options);
  gaffer.app.addHook('onClose', async () => runtime.supervisor.close());
  await gaffer.app.ready();
  const events: BusEvent[] = [];
  platform.bus.subscribe('*', (event) => {
    events.push(event);
  });
  const workspace = mkdtempSync(join(tmpdir(), 'gaffer-workspace-'));
  return {
    ...gaffer,
    platform,
    stores,
    runtime,
    scheduler: idleScheduler,
    events,
    workspace,
    ceoHeaders: { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) },
    headersFor: identityHeaders(platform.secret),
    specFor(slug, overrides = {}) {
      const member = rosterMember(slug);
      return {
        agent: { id: member.id, slug: member.slug, role: member.role, team: member.team },
        taskId: null,
        workspace,
        prompt: `You are ${slug}. Do the work.`,
        provider: 'fake',
        gatewayUrl: 'http://127.0.0.1:8420',
        token: `token-of-${slug}`,
        ...overrides,
      };
    },
    async close() {
      await gaffer.app.close();
      await platform.close();
      await stores.dispose();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** The events of one type for one agent, in order. */
export function eventsOf(
  events: readonly BusEvent[],
  type: string,
  agentId: string,
): Record<string, unknown>[] {
  return events
    .filter((event) => event.type === type && (event.data as { agent_id?: string }).agent_id === agentId)
    .map((event) => event.data as Record<string, unknown>);
}

/** Everything the agent printed on `stream` so far, from its AGENT_OUTPUT events. */
export function printed(events: readonly BusEvent[], agentId: string, stream = 'stdout'): string {
  return eventsOf(events, 'AGENT_OUTPUT', agentId)
    .filter((data) => data.stream === stream)
    .map((data) => data.text)
    .join('');
}
