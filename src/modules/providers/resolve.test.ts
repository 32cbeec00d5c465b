import { describe, expect, it } from 'vitest';
import { type RouteEntry, resolveRoute } from './resolve.js';

const agent = { id: 'a-1', role: 'developer' };
const global: RouteEntry = { scope: 'global', subject: '', provider: 'g', model: null };
const role: RouteEntry = { scope: 'role', subject: 'developer', provider: 'r', model: 'm-r' };
const own: RouteEntry = { scope: 'agent', subject: 'a-1', provider: 'a', model: 'm-a' };

describe('resolveRoute', () => {
  it('prefers the agent route, then the role route, then the global one', () => {
    expect(resolveRoute(agent, [global, role, own])).toBe(own);
    expect(resolveRoute(agent, [global, role])).toBe(role);
    expect(resolveRoute(agent, [global])).toBe(global);
  });
  it('ignores routes of other agents and roles, and answers null with no route', () => {
    const other: RouteEntry = { scope: 'agent', subject: 'a-2', provider: 'x', model: null };
    const qa: RouteEntry = { scope: 'role', subject: 'qa', provider: 'q', model: null };
    expect(resolveRoute(agent, [other, qa])).toBeNull();
    expect(resolveRoute(agent, [other, qa, global])).toBe(global);
  });
});
