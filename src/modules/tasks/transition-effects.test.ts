/** What transitions write besides the status: owner, claim lock, markers, counters, timestamps. */
import { describe, expect, it } from 'vitest';
import { overrideChanges, transitionChanges, unblockTarget } from './transition-effects.js';
import type { Actor, TaskRow } from './types.js';

const now = new Date('2026-03-01T10:00:00Z');
const dev: Actor = { id: 'dev', slug: 'be-dev-1', role: 'developer', team: 'backend' };
const qa: Actor = { id: 'qa', slug: 'be-qa', role: 'qa', team: 'backend' };

const row = (overrides: Partial<TaskRow>): TaskRow =>
  ({
    id: 't',
    status: 'in_progress',
    assignedTo: 'dev',
    claimedBy: 'dev',
    activeClaimantId: 'dev',
    markers: {},
    revisionCount: 0,
    startedAt: null,
    completedAt: null,
    ...overrides,
  }) as TaskRow;

describe('transitionChanges', () => {
  it('hands submitted work to the QA queue and marks its author', () => {
    const changes = transitionChanges(row({ status: 'verifying' }), 'submit_qa', 'awaiting_qa', dev, {
      now,
      reviewPmId: null,
    });
    expect(changes).toMatchObject({ status: 'awaiting_qa', assignedTo: null, activeClaimantId: null });
    expect(changes.markers).toMatchObject({ original_developer: 'dev' });
  });

  it('sends a QA failure back to the author and counts the revision', () => {
    const reviewing = row({
      status: 'awaiting_qa',
      assignedTo: 'qa',
      activeClaimantId: 'qa',
      markers: { original_developer: 'dev' },
    });
    const changes = transitionChanges(reviewing, 'qa_fail', 'needs_revision', qa, { now, reviewPmId: null });
    expect(changes).toMatchObject({ assignedTo: 'dev', activeClaimantId: null, revisionCount: 1 });
  });

  it('gives docs-complete work to the reviewing PM', () => {
    const changes = transitionChanges(
      row({ status: 'awaiting_documentation' }),
      'docs_complete',
      'awaiting_pm_review',
      dev,
      {
        now,
        reviewPmId: 'pm',
      },
    );
    expect(changes).toMatchObject({ assignedTo: 'pm', activeClaimantId: null, docsComplete: true });
  });

  it('stamps the first start only, and holds the claim while working', () => {
    const first = transitionChanges(row({ status: 'claimed' }), 'start', 'in_progress', dev, {
      now,
      reviewPmId: null,
    });
    expect(first).toMatchObject({ startedAt: now, activeClaimantId: 'dev', lastHeartbeatAt: now });
    const again = transitionChanges(
      row({ status: 'claimed', startedAt: new Date(0) }),
      'start',
      'in_progress',
      dev,
      {
        now,
        reviewPmId: null,
      },
    );
    expect(again).not.toHaveProperty('startedAt');
  });

  it('snapshots on block and restores on unblock', () => {
    const blocked = transitionChanges(row({}), 'block', 'blocked', dev, { now, reviewPmId: null });
    expect(blocked).toMatchObject({ activeClaimantId: null, assignedTo: 'dev' });
    expect(blocked.markers).toMatchObject({ pre_block: { status: 'in_progress', assigned_to: 'dev' } });
    const restored = row({
      status: 'blocked',
      activeClaimantId: null,
      markers: blocked.markers as Record<string, unknown>,
    });
    expect(unblockTarget(restored, ['in_progress', 'pending'])).toBe('in_progress');
    const unblocked = transitionChanges(
      restored,
      'unblock',
      'in_progress',
      { ...dev, id: 'pm', role: 'cell_pm' },
      {
        now,
        reviewPmId: null,
      },
    );
    expect(unblocked).toMatchObject({ assignedTo: 'dev', activeClaimantId: 'dev' });
    expect(unblocked.markers).not.toHaveProperty('pre_block');
  });

  it('unblocks to the pool when there is no owner to restore', () => {
    expect(unblockTarget(row({ status: 'blocked', assignedTo: null }), ['in_progress', 'pending'])).toBe(
      'pending',
    );
    expect(unblockTarget(row({ status: 'blocked' }), ['in_progress', 'pending'])).toBe('in_progress');
  });

  it('stamps completion', () => {
    const changes = transitionChanges(row({ status: 'awaiting_pm_review' }), 'complete', 'completed', dev, {
      now,
      reviewPmId: null,
    });
    expect(changes).toMatchObject({ completedAt: now, activeClaimantId: null });
  });
});

describe('overrideChanges', () => {
  it('marks the override, releases the claim into a queue and restores the pre-block owner', () => {
    const blocked = row({
      status: 'blocked',
      assignedTo: 'pm',
      activeClaimantId: null,
      markers: { pre_block: { status: 'in_progress', assigned_to: 'dev', by: 'dev', at: '' } },
    });
    const changes = overrideChanges(
      blocked,
      'in_progress',
      { ...dev, id: 'ceo', role: 'ceo' },
      { now, forced: false },
    );
    expect(changes).toMatchObject({ status: 'in_progress', assignedTo: 'dev', activeClaimantId: 'dev' });
    expect(changes.markers).toMatchObject({
      admin_override: { by: 'ceo', from: 'blocked', to: 'in_progress', forced: false },
    });
    const queued = overrideChanges(
      row({}),
      'awaiting_qa',
      { ...dev, id: 'ceo', role: 'ceo' },
      { now, forced: true },
    );
    expect(queued).toMatchObject({ assignedTo: null, activeClaimantId: null, lastHeartbeatAt: null });
  });
});
