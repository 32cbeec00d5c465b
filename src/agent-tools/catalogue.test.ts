/** Which tools a role gets and which route `--role` resolves to. */
import { describe, expect, it } from 'vitest';
import { doToolsFor } from '../modules/gateway/index.js';
import { GATEWAY_ROUTE_ROLES, GATEWAY_ROUTES, VERBS } from '../modules/lifecycle/index.js';
import { acceptedRoleNames, resolveRoute, toolsFor } from './catalogue.js';

describe('agent tool catalogue', () => {
  it('resolves route names and the roster roles that use them, and nothing else', () => {
    for (const route of GATEWAY_ROUTES) expect(resolveRoute(route)).toBe(route);
    expect(resolveRoute('product_owner')).toBe('board');
    expect(resolveRoute('head_marketing')).toBe('board');
    expect(resolveRoute(' Developer ')).toBe('developer');
    for (const other of ['ceo', 'secretary', 'system', 'wizard', ''])
      expect(resolveRoute(other)).toBeUndefined();
    expect(acceptedRoleNames()).toEqual([...GATEWAY_ROUTES, 'product_owner', 'head_marketing']);
  });

  it('gives each route its verbs, in lifecycle order, then its do-tools, each aimed at its endpoint', () => {
    for (const route of GATEWAY_ROUTES) {
      const doTools = doToolsFor(GATEWAY_ROUTE_ROLES[route][0]!);
      const tools = toolsFor(route);
      expect(tools.map((tool) => tool.name)).toEqual([...VERBS[route].map((verb) => verb.name), ...doTools]);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.description).toBe(tool.inputSchema.description);
        expect(tool.target).toEqual(
          (doTools as readonly string[]).includes(tool.name)
            ? { kind: 'do', tool: tool.name }
            : { kind: 'verb', route, verb: tool.name },
        );
      }
    }
  });

  it('offers commit only to the roles that write code or docs', () => {
    const hasCommit = GATEWAY_ROUTES.filter((route) =>
      toolsFor(route).some((tool) => tool.name === 'commit'),
    );
    expect(hasCommit).toEqual(['developer', 'documenter']);
    for (const route of GATEWAY_ROUTES) {
      const names = toolsFor(route).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['note', 'dm', 'read_a2a', 'evidence']));
    }
  });
});
