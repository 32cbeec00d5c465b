/**
 * The verb definitions are the one source the gateway reads: they match the lifecycle's verbs name
 * for name, and the breaker's lists and the next-verb suggestions are what the definitions say.
 */
import { describe, expect, it } from 'vitest';
import {
  GATEWAY_ROUTE_ROLES,
  GATEWAY_ROUTES,
  TASK_STATUSES,
  VERBS,
  validVerbs,
} from '../../lifecycle/index.js';
import { BREAKER_DEFAULT_LIMIT, breakerLimit, isLimited, RUN_STARTING_VERBS } from '../breaker.js';
import { DO_TOOL_DEFINITIONS } from '../do-tools.js';
import { suggestNext } from '../next-verbs.js';
import { DO_TOOLS } from '../verb-inputs.js';
import { routeDefinitions, VERB_DEFINITIONS } from './index.js';

const lifecycleNames = new Set(GATEWAY_ROUTES.flatMap((route) => VERBS[route].map((verb) => verb.name)));
const definedNames = VERB_DEFINITIONS.map((verb) => verb.name);

describe('verb definitions', () => {
  it('define each verb once, and exactly the verbs the lifecycle gives some route', () => {
    expect(new Set(definedNames).size).toBe(definedNames.length);
    expect([...definedNames].sort()).toEqual([...lifecycleNames].sort());
  });

  it('are where the breaker reads which verbs and do-tools are limited, start a run, and their limit', () => {
    const classes = [
      ...VERB_DEFINITIONS.map((verb) => ({
        name: verb.name,
        breaker: verb.breaker,
        limit: verb.breakerLimit,
      })),
      ...DO_TOOLS.map((tool) => ({
        name: tool,
        breaker: DO_TOOL_DEFINITIONS[tool].breaker,
        limit: undefined,
      })),
    ];
    for (const { name, breaker = 'counted', limit } of classes) {
      expect(isLimited(name), name).toBe(breaker === 'counted' || breaker === 'claim');
      expect(RUN_STARTING_VERBS.has(name), name).toBe(breaker === 'find_work' || breaker === 'claim');
      expect(breakerLimit(name), name).toBe(limit ?? BREAKER_DEFAULT_LIMIT);
    }
    // What the classes mean for the agents: the way out is never blocked, a claim is counted.
    for (const exit of ['give_me_work', 'unclaim', 'resume', 'i_am_idle', 'evidence', 'read_a2a'])
      expect(isLimited(exit), exit).toBe(false);
    expect(isLimited('i_will_work_on')).toBe(true);
    expect(breakerLimit('open_pr')).toBe(5);
  });

  it('are where the next-verb suggestion comes from: at most one verb per route claims a task, and it is suggested when valid', () => {
    const who = ['me', 'someone-else', null];
    for (const route of GATEWAY_ROUTES) {
      const role = GATEWAY_ROUTE_ROLES[route][0]!;
      const verbs = routeDefinitions(route);
      for (const status of TASK_STATUSES) {
        for (const prCreated of [true, false]) {
          for (const claimant of who) {
            for (const assignee of who) {
              const facts = {
                route,
                status,
                prCreated,
                claimedByMe: claimant === 'me',
                mine: claimant === 'me' || assignee === 'me',
              };
              const natural = verbs.filter((verb) => verb.suggestWhen?.(facts)).map((verb) => verb.name);
              const where = `${route} ${JSON.stringify(facts)}`;
              expect(natural.length, where).toBeLessThanOrEqual(1);
              const task = {
                status,
                pr_created: prCreated,
                active_claimant_id: claimant,
                assigned_to: assignee,
              };
              const next = suggestNext(role, task, 'me');
              if (natural[0] && validVerbs(role, status).includes(natural[0]))
                expect(next, where).toBe(natural[0]);
              else expect(natural.includes(next ?? ''), where).toBe(false);
            }
          }
        }
      }
    }
  });

  it('name the way to find other work: with nothing in hand, the route’s lowest fallback rank', () => {
    for (const route of GATEWAY_ROUTES) {
      const first = routeDefinitions(route)
        .filter((verb) => verb.fallbackRank !== undefined)
        .sort((a, b) => (a.fallbackRank ?? 0) - (b.fallbackRank ?? 0))[0];
      expect(suggestNext(GATEWAY_ROUTE_ROLES[route][0]!, null, 'me'), route).toBe(first?.name ?? null);
    }
    expect(suggestNext('developer', null, 'me')).toBe('give_me_work');
    expect(suggestNext('product_owner', null, 'me')).toBe('triage');
  });
});
