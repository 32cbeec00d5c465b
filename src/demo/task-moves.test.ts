import { describe, expect, it } from 'vitest';
import { approveCommand, formatMove, isMove, requestChangesCommand } from './task-moves.js';

const entry = (action: string, from: string | null, to: string | null) => ({
  id: 1,
  actor_id: 'x',
  action,
  from_status: from,
  to_status: to,
});

describe('demo task moves', () => {
  it('are creations, claims and column changes, not note or field edits', () => {
    expect(isMove(entry('create', null, 'pending'))).toBe(true);
    expect(isMove(entry('claim', 'awaiting_qa', 'awaiting_qa'))).toBe(true);
    expect(isMove(entry('qa_pass', 'awaiting_qa', 'awaiting_documentation'))).toBe(true);
    expect(isMove(entry('pass_notes', 'awaiting_documentation', 'awaiting_documentation'))).toBe(false);
    expect(isMove(entry('branch', 'claimed', 'claimed'))).toBe(false);
  });

  it('read as state, agent and verb', () => {
    expect(formatMove('T', entry('create', null, 'pending'), 'ceo')).toBe(
      'move: "T" new → pending by ceo (create)',
    );
    expect(formatMove('T', entry('claim', 'awaiting_qa', 'awaiting_qa'), 'be-qa')).toBe(
      'move: "T" awaiting_qa by be-qa (claim)',
    );
  });

  it('end with a command that approves and merges, and one that asks for changes', () => {
    expect(approveCommand('http://127.0.0.1:1', 'id', 'tok')).toBe(
      "curl -fsS -X POST -H 'X-Agent-Token: tok' http://127.0.0.1:1/api/tasks/id/approve-and-merge",
    );
    const request = requestChangesCommand('http://127.0.0.1:1', 'id', 'tok');
    expect(request).toMatch(
      /^curl -fsS -X POST -H 'X-Agent-Token: tok' -H 'Content-Type: application\/json' -d '(.+)' /,
    );
    expect(request.endsWith(' http://127.0.0.1:1/api/tasks/id/request-changes')).toBe(true);
    const body = JSON.parse(/-d '(.+?)'/.exec(request)![1]!) as { reason: string };
    expect(body.reason.length).toBeGreaterThanOrEqual(10);
  });
});
