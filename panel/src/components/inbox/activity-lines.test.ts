import { describe, expect, it } from 'vitest';
import { type ActivityEvent, engineName, feed, pauseLine, taskLine } from './activity-lines';

const event = (fields: Partial<ActivityEvent>): ActivityEvent => ({
  id: 1,
  task_id: 't1',
  actor_id: 'a1',
  actor_role: 'developer',
  action: 'submit',
  from_status: 'in_progress',
  to_status: 'awaiting_qa',
  created_at: '2026-11-25T10:00:00.000Z',
  task_title: 'Health endpoint',
  task_source: 'manual',
  ...fields,
});

describe('activity lines', () => {
  it('says who moved a task and between which states', () => {
    expect(taskLine(event({}))).toMatchObject({
      kind: 'move',
      who: 'developer',
      text: 'submit “Health endpoint” from in progress to awaiting qa',
      taskId: 't1',
    });
    expect(taskLine(event({ action: 'update', from_status: 'pending', to_status: 'pending' })).text).toBe(
      'edited “Health endpoint”',
    );
    const approved = event({
      action: 'ceo_approve',
      from_status: 'awaiting_ceo_approval',
      to_status: 'completed',
    });
    expect(taskLine(approved).text).toBe(
      'approved “Health endpoint” from awaiting ceo approval to completed',
    );
    const noted = event({ action: 'complete_notes', from_status: 'completed', to_status: 'completed' });
    expect(taskLine(noted).text).toBe('noted “Health endpoint” (complete)');
    const escalated = event({
      action: 'escalate_to_ceo',
      from_status: 'awaiting_pm_review',
      to_status: 'awaiting_ceo_approval',
    });
    expect(taskLine(escalated).text).toBe(
      'escalated “Health endpoint” to the CEO from awaiting pm review to awaiting ceo approval',
    );
    // Named by slug when the roster knows the actor.
    expect(taskLine(event({}), (id) => (id === 'a1' ? 'be-dev-1' : undefined)).who).toBe('be-dev-1');
  });

  it('names the engine that opened a task', () => {
    expect(engineName('engine:ci_watch')).toBe('CI-watch');
    expect(engineName('engine:new_thing')).toBe('new thing');
    expect(engineName('manual')).toBeNull();
    const line = taskLine(event({ action: 'create', task_source: 'engine:ci_watch', from_status: null }));
    expect(line).toMatchObject({ kind: 'origination', who: 'CI-watch', text: 'opened “Health endpoint”' });
  });

  it('describes pauses and resumes, and merges everything newest first without duplicates', () => {
    const pause = {
      scope: 'dispatch',
      paused: true,
      mode: 'drain',
      reason: 'migrating',
      at: '2026-11-25T10:05:00.000Z',
    };
    expect(pauseLine(pause).text).toBe('paused dispatch (drain) · “migrating”');
    expect(pauseLine({ ...pause, paused: false, mode: null }).text).toBe('resumed dispatch');
    const lines = feed(
      [event({ id: 1 }), event({ id: 2, created_at: '2026-11-25T10:10:00.000Z' })],
      [pause, pause],
      10,
    );
    expect(lines.map((l) => l.key)).toEqual(['task-2', `pause-dispatch-${pause.at}-true`, 'task-1']);
    expect(feed([event({ id: 1 }), event({ id: 2 })], [], 1)).toHaveLength(1);
  });
});
