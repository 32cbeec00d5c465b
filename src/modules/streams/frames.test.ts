import { describe, expect, it } from 'vitest';
import type { BusEvent } from '../../platform/bus/index.js';
import {
  agentChannel,
  BRIDGE,
  bodyExcerpt,
  notificationsChannel,
  routeEvent,
  SYSTEM_CHANNEL,
} from './frames.js';

const event = <T>(type: string, data: T): BusEvent<string, T> => ({
  id: 'e1',
  type,
  data,
  timestamp: '2026-01-02T03:04:05.000Z',
  correlation_id: null,
});

const a2a = (body: string) =>
  event('A2A_MESSAGE_SENT', {
    conversation_id: 'c1',
    message_id: 'm1',
    task_id: null,
    sender_slug: 'be-dev-1',
    recipient_slug: 'be-pm',
    body,
  });

describe('bodyExcerpt', () => {
  it('keeps a body of at most 240 characters unchanged', () => {
    expect(bodyExcerpt('short')).toBe('short');
    const exact = 'x'.repeat(240);
    expect(bodyExcerpt(exact)).toBe(exact);
  });

  it('cuts a longer body to 240 characters, right-trimmed, plus one ellipsis', () => {
    expect(bodyExcerpt('y'.repeat(241))).toBe(`${'y'.repeat(240)}…`);
    expect(bodyExcerpt(`${'a'.repeat(235)}     tail`)).toBe(`${'a'.repeat(235)}…`);
  });

  it('counts characters, not UTF-16 units, so no emoji is split', () => {
    const body = '😀'.repeat(300);
    expect(bodyExcerpt(body)).toBe(`${'😀'.repeat(240)}…`);
    expect(bodyExcerpt('😀'.repeat(240))).toBe('😀'.repeat(240));
  });
});

describe('the bridge table', () => {
  it('maps system events to /ws/system as {type, ...data}', () => {
    const hit = {
      provider: 'anthropic',
      kind: 'rate_limited' as const,
      affected_agents: ['a'],
      hit_at: '2026-01-01T00:00:00.000Z',
      resume_at: '2026-01-01T00:00:30.000Z',
      retry_after_seconds: 30,
      probe_failures: 0,
    };
    expect(routeEvent(event('RATE_LIMIT_HIT', hit))).toEqual({
      channel: SYSTEM_CHANNEL,
      frame: { type: 'RATE_LIMIT_HIT', ...hit },
    });
    expect(
      routeEvent(
        event('RATE_LIMIT_LIFTED', {
          provider: 'p',
          resumed_agents: [],
          lifted_at: '2026-01-01T00:01:00.000Z',
        }),
      )?.channel,
    ).toBe('system');
    expect(routeEvent(event('USAGE_SNAPSHOT', { period: 'live' }))?.frame.type).toBe('USAGE_SNAPSHOT');
  });

  it('sends a2a messages as a2a.message with an excerpt and never the body', () => {
    const routed = routeEvent(a2a('z'.repeat(500)));
    expect(routed?.channel).toBe(SYSTEM_CHANNEL);
    expect(routed?.frame).toEqual({
      type: 'a2a.message',
      conversation_id: 'c1',
      message_id: 'm1',
      task_id: null,
      sender_slug: 'be-dev-1',
      recipient_slug: 'be-pm',
      body_excerpt: `${'z'.repeat(240)}…`,
      timestamp: '2026-01-02T03:04:05.000Z',
    });
    expect(routed?.frame).not.toHaveProperty('body');
  });

  it('sends notifications to their recipient, keeping the notification type apart', () => {
    const routed = routeEvent(
      event('NOTIFICATION_SENT', {
        notification_id: 'n1',
        recipient_id: 'AB-C',
        type: 'review_requested',
        priority: 'high',
        subject: 's',
        ack_required: true,
      }),
    );
    expect(routed?.channel).toBe(notificationsChannel('ab-c'));
    expect(routed?.frame).toMatchObject({ type: 'NOTIFICATION_SENT', notification_type: 'review_requested' });
    expect(routeEvent(event('NOTIFICATION_ACKED', { notification_id: 'n1', recipient_id: 'r' }))).toEqual({
      channel: 'notifications:r',
      frame: { type: 'NOTIFICATION_ACKED', notification_id: 'n1', recipient_id: 'r' },
    });
  });

  it('sends lifecycle and output events to the agent stream', () => {
    for (const type of ['AGENT_SPAWNED', 'AGENT_STOPPED', 'AGENT_WAITING', 'AGENT_RESUMED', 'AGENT_ERROR']) {
      expect(routeEvent(event(type, { agent_id: 'a1', task_id: null, detail: null }))).toEqual({
        channel: agentChannel('a1'),
        frame: { type, agent_id: 'a1', task_id: null, detail: null },
      });
    }
    const output = { agent_id: 'a1', task_id: 't', stream: 'stdout', text: 'hi' };
    expect(routeEvent(event('AGENT_OUTPUT', output))?.channel).toBe('agents:a1');
  });

  it('has one row per bridged event and ignores the others', () => {
    expect(Object.keys(BRIDGE)).toHaveLength(14);
    expect(routeEvent(event('MAINTENANCE_PAUSE_CHANGED', { scope: 'engines' }))?.channel).toBe('system');
    const change = {
      task_id: 't1',
      status: 'awaiting_ceo_approval',
      assigned_to: null,
      change: 'transition',
    };
    expect(routeEvent(event('TASK_CHANGED', change))).toEqual({
      channel: 'system',
      frame: { type: 'TASK_CHANGED', ...change },
    });
    expect(routeEvent(event('TASK_CREATED', {}))).toBeNull();
    expect(routeEvent(event('toString', {}))).toBeNull();
  });
});
