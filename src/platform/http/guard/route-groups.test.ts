import { describe, expect, it } from 'vitest';
import { routeGroup } from './route-groups.js';

describe('rate-limit groups', () => {
  it.each([
    ['POST', '/api/auth/session', 'sensitive'],
    ['POST', '/api/git/branches/cleanup', 'sensitive'],
    ['POST', '/api/release/proposal/approve', 'sensitive'],
    ['GET', '/api/release/proposal', 'general'],
    ['DELETE', '/api/auth/session', 'general'],
    ['GET', '/api/kanban', 'general'],
  ])('%s %s is %s', (method, url, group) => {
    expect(routeGroup(method, url)).toBe(group);
  });

  it('reads a route registered for several methods', () => {
    expect(routeGroup(['GET', 'POST'], '/api/auth/session')).toBe('sensitive');
  });
});
