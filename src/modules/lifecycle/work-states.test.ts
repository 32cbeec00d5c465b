/** What the work-state sets mean, checked against the transition table they are read from. */
import { describe, expect, it } from 'vitest';
import type { LifecycleAction } from './actions.js';
import type { Role } from './roles.js';
import { holdsClaim, NON_TERMINAL_STATES, type TaskStatus } from './states.js';
import { edgesOf, TRANSITIONS } from './transitions.js';
import {
  AGENT_TURN_STATES,
  BUILDING_STATES,
  IN_WORK_STATES,
  LIVE_STATES,
  RELEASABLE_STATES,
} from './work-states.js';

/** People and the server: never an agent process. */
const PEOPLE: readonly Role[] = ['ceo', 'system', 'prompter', 'secretary'];
/** A manager's moves on a task, not work on it. */
const MANAGING: readonly LifecycleAction[] = [
  'activate',
  'unblock',
  'escalate_up',
  'escalate_to_ceo',
  'cancel',
];
const sorted = (states: readonly TaskStatus[]) => [...states].sort();

describe('work states', () => {
  it('gives an agent its turn exactly where an agent can work the task on (claim, work, resume, review)', () => {
    const workable = NON_TERMINAL_STATES.filter((status) =>
      TRANSITIONS.some(
        (edge) =>
          edge.from === status &&
          !MANAGING.includes(edge.action) &&
          edge.roles.some((role) => !PEOPLE.includes(role)),
      ),
    );
    expect(sorted(AGENT_TURN_STATES)).toEqual(sorted(workable));
    expect(AGENT_TURN_STATES).not.toContain('awaiting_ceo_approval');
  });

  it('can block every live task but the CEO’s, and an unblock restores it', () => {
    const restorable = edgesOf('unblock', 'blocked').map((edge) => edge.to);
    for (const status of LIVE_STATES.filter((s) => s !== 'awaiting_ceo_approval')) {
      expect(restorable, status).toContain(status);
    }
    expect(LIVE_STATES).not.toContain('backlog');
    expect(LIVE_STATES).not.toContain('blocked');
  });

  it('counts as in work only the states whose owner holds the claim and works (not paused, not a revision in wait)', () => {
    expect(sorted(IN_WORK_STATES)).toEqual(['claimed', 'in_progress', 'verifying']);
    expect(sorted(BUILDING_STATES)).toEqual(['claimed', 'in_progress', 'needs_revision']);
  });

  it('releases claims only where the owner holds one, back to pending, by the system alone', () => {
    expect(sorted(RELEASABLE_STATES)).toEqual(['claimed', 'in_progress']);
    for (const status of RELEASABLE_STATES) {
      expect(holdsClaim(status), status).toBe(true);
      expect(edgesOf('release', status).map((edge) => [edge.to, edge.roles])).toEqual([
        ['pending', ['system']],
      ]);
    }
  });
});
