/** State categories (reference A §2.1) and the god-mode force rule. */
import { describe, expect, it } from 'vitest';
import {
  holdsClaim,
  isTaskStatus,
  overrideNeedsForce,
  STATE_CATEGORIES,
  TASK_STATUSES,
  WAITING_STATES,
} from './states.js';

describe('task states', () => {
  it('has the fifteen states', () => {
    expect(TASK_STATUSES).toHaveLength(15);
    expect(isTaskStatus('awaiting_pm_review')).toBe(true);
    expect(isTaskStatus('held')).toBe(false);
  });

  it('categorises every state as terminal, active or waiting', () => {
    const by = (category: string) => TASK_STATUSES.filter((s) => STATE_CATEGORIES[s] === category).sort();
    expect(by('terminal')).toEqual(['cancelled', 'completed']);
    expect(by('active')).toEqual(['claimed', 'in_progress', 'needs_revision', 'verifying']);
    expect([...WAITING_STATES].sort()).toEqual(
      [
        'awaiting_ceo_approval',
        'awaiting_documentation',
        'awaiting_pm_review',
        'awaiting_pr_review',
        'awaiting_qa',
        'backlog',
        'blocked',
        'paused',
        'pending',
      ].sort(),
    );
  });

  it('keeps the claim only while the owner works the task', () => {
    expect(TASK_STATUSES.filter(holdsClaim)).toEqual(['claimed', 'in_progress', 'paused', 'verifying']);
  });

  it.each([
    ['in_progress', 'completed', true],
    ['pending', 'cancelled', true],
    ['in_progress', 'awaiting_qa', true],
    ['pending', 'awaiting_documentation', true],
    ['in_progress', 'awaiting_pr_review', true],
    ['blocked', 'awaiting_pm_review', true],
    ['pending', 'awaiting_ceo_approval', true],
    ['completed', 'pending', true],
    ['cancelled', 'in_progress', true],
    ['blocked', 'in_progress', false],
    ['in_progress', 'pending', false],
    ['awaiting_qa', 'needs_revision', false],
    ['pending', 'pending', false],
  ] as const)('override %s → %s needs force: %s', (from, to, needed) => {
    expect(overrideNeedsForce(from, to)).toBe(needed);
  });
});
