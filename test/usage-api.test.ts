/**
 * /api/usage end to end on the real app: usage recorded through each path — a model-adapter call
 * (the providers' completion probe against a fake LLM on loopback), a real agent process printing
 * Claude Code stream-json usage lines, and an agent's `report_usage` do-tool — shows in the summary,
 * the by-agent/team/model/role views and a USAGE_SNAPSHOT frame on a real /ws/system socket; the
 * price table (built-in, plus the CEO's `model_prices`) prices it; periods, trend, time series,
 * role checks and bad input behave as the panel expects.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { createModelClient, type ModelCallUsage } from '../src/platform/llm/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm/index.js';
import { connect, listen, type StreamClient } from './support/ws-client.js';

const KEY = 'sk-usage-test-key-0123456789';
let t: TestApp;
let fake: FakeLlm;
let socket: StreamClient;
let scratch: string;

/** A stand-in for Claude Code: prints stream-json lines (init, two assistant lines of one message, result). */
const CLAUDE_LINES = [
  { type: 'system', subtype: 'init', model: 'claude-sonnet-4-5-20250929' },
  {
    type: 'assistant',
    message: {
      id: 'msg_1',
      model: 'claude-sonnet-4-5-20250929',
      usage: {
        input_tokens: 1000,
        output_tokens: 50,
        cache_read_input_tokens: 4000,
        cache_creation_input_tokens: 2000,
      },
    },
  },
  {
    type: 'assistant',
    message: {
      id: 'msg_1',
      model: 'claude-sonnet-4-5-20250929',
      usage: {
        input_tokens: 1000,
        output_tokens: 50,
        cache_read_input_tokens: 4000,
        cache_creation_input_tokens: 2000,
      },
    },
  },
  {
    type: 'result',
    subtype: 'success',
    usage: {
      input_tokens: 1000,
      output_tokens: 450,
      cache_read_input_tokens: 4000,
      cache_creation_input_tokens: 2000,
    },
  },
];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'gaffer-usage-'));
  const script = join(scratch, 'claude-like.mjs');
  writeFileSync(
    script,
    CLAUDE_LINES.map((line) => `console.log(${JSON.stringify(JSON.stringify(line))});`).join('\n'),
  );
  chmodSync(script, 0o755);
  t = await startTestApp({ config: { agentCommandCustom: `${process.execPath} ${script} {prompt_file}` } });
  fake = await startFakeLlm({ apiKey: KEY });
  const base = await listen(t);
  socket = (await connect(`${base}/ws/system`)).client;
});
afterAll(async () => {
  socket?.close();
  await t?.close();
  await fake?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const get = (url: string, headers = t.ceoHeaders) => t.app.inject({ method: 'GET', url, headers });
const as = (slug: string) => {
  const member = rosterMember(slug);
  return t.headersFor(member.id, member.role, member.team ?? '');
};

/** Waits for a USAGE_SNAPSHOT frame that satisfies `match` (earlier snapshots are skipped). */
async function snapshotWhere(match: (frame: Record<string, unknown>) => boolean) {
  for (;;) {
    const frame = (await socket.next(5000)) as Record<string, unknown>;
    if (frame.type === 'USAGE_SNAPSHOT' && match(frame)) return frame;
  }
}

describe('usage recorded through every path', () => {
  it('appears in the summary, the by-* views and a USAGE_SNAPSHOT frame', async () => {
    // The CEO prices the fake provider's model; Claude Sonnet is in the built-in table.
    const priced = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/model_prices',
      headers: t.ceoHeaders,
      payload: { value: { 'fake-small': { input: 10, output: 20, cache_read: 1, cache_write: 0 } } },
    });
    expect(priced.statusCode, priced.body).toBe(200);

    // 1. A model-adapter call: the providers' completion probe (openai wire, 100 prompt tokens of which 30 cached).
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/providers',
      headers: t.ceoHeaders,
      payload: {
        name: 'local',
        kind: 'openai',
        base_url: `${fake.url}/v1`,
        default_model: 'fake-small',
        api_key: KEY,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    fake.script({
      kind: 'reply',
      text: 'pong',
      usage: { input_tokens: 70, output_tokens: 1, cache_read_tokens: 30 },
    });
    const probe = await t.app.inject({
      method: 'POST',
      url: '/api/providers/local/test?mode=completion',
      headers: t.ceoHeaders,
    });
    expect(probe.json()).toMatchObject({ ok: true });

    // 2. A real agent process printing Claude Code stream-json usage lines.
    const dev = rosterMember('be-dev-1');
    await t.modules.runtime.supervisor.spawn('process', {
      agent: { id: dev.id, slug: dev.slug, role: dev.role, team: dev.team },
      taskId: null,
      workspace: scratch,
      prompt: 'Do the work.',
      provider: 'custom',
      gatewayUrl: 'http://127.0.0.1:1',
      token: 'token-of-be-dev-1',
    });
    const exit = await t.modules.runtime.supervisor.whenEnded(dev.id);
    expect(exit?.outcome).toBe('exited');

    // 3. An agent reporting its own usage through the gateway (no cost given: priced from the table).
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/v1/do',
      headers: as('fe-qa'),
      payload: {
        tool: 'report_usage',
        model: 'gpt-4o-mini',
        provider: 'codex',
        input_tokens: 2000,
        output_tokens: 1000,
      },
    });
    expect(reported.json(), reported.body).toMatchObject({ ok: true, data: { cost_usd: 0.0009 } });

    // adapter: 70×10 + 1×20 + 30×1 = 750 µ$; claude: 1000×3 + 450×15 + 4000×0.3 + 2000×3.75 = 18 450 µ$;
    // reported: 2000×0.15 + 1000×0.6 = 900 µ$.
    const expected = {
      input_tokens: 70 + 1000 + 2000,
      output_tokens: 1 + 450 + 1000,
      cache_read_tokens: 30 + 4000,
      cache_write_tokens: 2000,
      total_tokens: 3070 + 1451 + 4030 + 2000,
      cost_usd: 0.0201,
    };
    await expect.poll(async () => (await get('/api/usage/summary')).json().calls, { timeout: 5000 }).toBe(4); // the Claude run is two records: its message, then what the result line added
    const summary = (await get('/api/usage/summary?period=24h')).json();
    expect(summary).toEqual({
      period: '24h',
      ...expected,
      calls: 4,
      trend_pct: 100,
      previous: { total_tokens: 0, cost_usd: 0 },
    });

    const byAgent = (await get('/api/usage/by-agent?period=7d')).json();
    expect(byAgent.period).toBe('7d');
    expect(byAgent.rows.map((row: { label: string }) => row.label)).toEqual([
      rosterMember('be-dev-1').name,
      rosterMember('fe-qa').name,
      'No agent',
    ]);
    expect(byAgent.rows[0]).toMatchObject({
      key: dev.id,
      cost_usd: 0.01845,
      cache_read_tokens: 4000,
      pct_of_total: 91.8,
    });

    const byModel = (await get('/api/usage/by-model')).json();
    expect(byModel.rows.map((row: { key: string; cost_usd: number }) => [row.key, row.cost_usd])).toEqual([
      ['claude-sonnet-4-5-20250929', 0.01845],
      ['gpt-4o-mini', 0.0009],
      ['fake-small', 0.00075],
    ]);
    const byTeam = (await get('/api/usage/by-team')).json();
    expect(byTeam.rows.map((row: { key: string; label: string }) => [row.key, row.label])).toEqual([
      ['backend', 'Backend'],
      ['frontend', 'Frontend'],
      ['none', 'No team'],
    ]);
    const byRole = (await get('/api/usage/by-role', as('main-pm'))).json();
    expect(byRole.rows.map((row: { key: string }) => row.key)).toEqual(['developer', 'qa', 'none']);
    expect(
      byRole.rows.reduce((sum: number, row: { pct_of_total: number }) => sum + row.pct_of_total, 0),
    ).toBeCloseTo(100, 0);

    const snapshot = await snapshotWhere((frame) => frame.calls === 4);
    expect(snapshot).toMatchObject({ type: 'USAGE_SNAPSHOT', period: '24h', ...expected, calls: 4 });
    expect(Number.isNaN(Date.parse(snapshot.at as string))).toBe(false);
  });
});

describe('the model adapters', () => {
  it('tell onUsage the usage of a streamed Anthropic call, with its cache reads and writes', async () => {
    const heard: ModelCallUsage[] = [];
    const client = createModelClient({
      kind: 'anthropic',
      baseUrl: fake.url,
      apiKey: KEY,
      model: 'fake-large',
      onUsage: (call) => heard.push(call),
    });
    fake.script({
      kind: 'reply',
      text: ['a', 'b'],
      usage: { input_tokens: 5, output_tokens: 2, cache_read_tokens: 40, cache_write_tokens: 9 },
    });
    for await (const event of client.stream({ messages: [{ role: 'user', content: 'hi' }] })) void event;
    expect(heard).toEqual([
      {
        provider: 'anthropic',
        model: 'fake-large',
        usage: { input_tokens: 5, output_tokens: 2, cache_read_tokens: 40, cache_write_tokens: 9 },
      },
    ]);
  });
});

describe('the usage routes', () => {
  it('give a zero-filled time series, hourly for 24h and daily otherwise, optionally for one agent', async () => {
    const hourly = (await get('/api/usage/time-series?period=24h')).json();
    expect(hourly.bucket).toBe('hour');
    expect(hourly.points).toHaveLength(24);
    const last = hourly.points.at(-1);
    expect(last.total_tokens).toBeGreaterThanOrEqual(10551);
    expect(hourly.points.slice(0, 22).every((p: { total_tokens: number }) => p.total_tokens === 0)).toBe(
      true,
    );
    const daily = (await get('/api/usage/time-series?period=30d&agent=fe-qa')).json();
    expect(daily.bucket).toBe('day');
    expect(daily.points).toHaveLength(30);
    expect(daily.points.at(-1)).toMatchObject({ input_tokens: 2000, output_tokens: 1000, cost_usd: 0.0009 });
    expect(Date.parse(daily.points[1].at) - Date.parse(daily.points[0].at)).toBe(86_400_000);
    const unknown = await get('/api/usage/time-series?agent=nobody-here');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.message).toContain('nobody-here');
  });

  it('compare a period with the window before it', async () => {
    const now = Date.now();
    const service = t.modules.usage.service;
    // 30 hours ago: in the 24h window before this one, and in this week.
    await service.record({
      provider: 'claude',
      model: 'claude-sonnet-4-5',
      input_tokens: 1_000_000,
      output_tokens: 0,
      at: new Date(now - 30 * 3_600_000),
    });
    const day = (await get('/api/usage/summary?period=24h')).json();
    expect(day.previous).toEqual({ total_tokens: 1_000_000, cost_usd: 3 });
    expect(day.trend_pct).toBe(Math.round(((day.cost_usd - 3) / 3) * 1000) / 10);
    const week = (await get('/api/usage/summary?period=7d')).json();
    expect(week.cost_usd).toBeCloseTo(day.cost_usd + 3, 6);
    expect(week.previous).toEqual({ total_tokens: 0, cost_usd: 0 });
  });

  it('project the month against the company budget', async () => {
    const before = (await get('/api/usage/projection')).json();
    expect(before).toMatchObject({ basis_days: 7, monthly_cap_usd: null, over_budget: false });
    expect(before.avg_daily_cost_usd).toBeCloseTo(before.cost_7d_usd / 7, 5);
    expect(before.projected_month_usd).toBeGreaterThanOrEqual(before.month_to_date_usd);
    const capped = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/company_monthly_budget_usd',
      headers: t.ceoHeaders,
      payload: { value: 0.01 },
    });
    expect(capped.statusCode).toBe(200);
    const after = (await get('/api/usage/projection')).json();
    expect(after).toMatchObject({ monthly_cap_usd: 0.01, over_budget: after.month_to_date_usd >= 0.01 });
  });

  it('are for the CEO and the PMs, and refuse a period they do not know', async () => {
    expect((await get('/api/usage/summary', as('be-dev-1'))).statusCode).toBe(403);
    expect((await get('/api/usage/by-agent', {})).statusCode).toBe(401);
    expect((await get('/api/usage/summary', as('fe-pm'))).statusCode).toBe(200);
    for (const url of [
      '/api/usage/summary?period=90d',
      '/api/usage/by-model?period=1y',
      '/api/usage/time-series?period=',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(422);
      expect(response.body).not.toMatch(/select|usage_records/i);
    }
  });

  it('refuse a bad report_usage with field hints, recording nothing', async () => {
    const before = (await get('/api/usage/summary')).json().calls;
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/do',
      headers: as('fe-qa'),
      payload: { tool: 'report_usage', model: 'gpt-4o', input_tokens: -5, output_tokens: 'many' },
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({ ok: false });
    expect((await get('/api/usage/summary')).json().calls).toBe(before);
  });
});
