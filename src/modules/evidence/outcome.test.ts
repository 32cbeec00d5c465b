import { describe, expect, it } from 'vitest';
import { type OutcomeEvent, type OutcomeInputs, outcomeOf } from './outcome.js';

const DEV = '00000000-0000-0000-0001-000000000001';
const QA = '00000000-0000-0000-0001-000000000003';
const PM = '00000000-0000-0000-0001-000000000005';
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute));

let id = 0;
const event = (
  minute: number,
  actor: string,
  role: string,
  action: string,
  from: string | null,
  to: string | null,
): OutcomeEvent => ({
  id: ++id,
  actorId: actor,
  actorRole: role,
  action,
  fromStatus: from,
  toStatus: to,
  at: at(minute),
});

/** A code subtask: claimed, submitted, failed once by QA, fixed, passed, documented, accepted by its PM. */
function reworkedSubtask(): OutcomeInputs {
  id = 100;
  return {
    task: {
      id: 'b70796f9-6edc-43de-af76-171e28c9b0c7',
      rootTaskId: 'a0000000-0000-4000-8000-000000000000',
      parentTaskId: 'a1000000-0000-4000-8000-000000000000',
      projectId: 'c0000000-0000-4000-8000-000000000000',
      team: 'backend',
      taskType: 'code',
      status: 'completed',
      assignedTo: PM,
      createdAt: at(0),
    },
    events: [
      event(0, PM, 'cell_pm', 'create', null, 'pending'),
      event(2, DEV, 'developer', 'claim', 'pending', 'claimed'),
      event(3, DEV, 'developer', 'start', 'claimed', 'in_progress'),
      event(13, DEV, 'developer', 'submit_qa', 'in_progress', 'awaiting_qa'),
      event(15, QA, 'qa', 'qa_fail', 'awaiting_qa', 'needs_revision'),
      event(20, DEV, 'developer', 'submit_qa', 'needs_revision', 'awaiting_qa'),
      event(22, QA, 'qa', 'qa_pass', 'awaiting_qa', 'awaiting_documentation'),
      event(25, 'doc', 'documenter', 'docs_complete', 'awaiting_documentation', 'awaiting_pm_review'),
      event(30, PM, 'cell_pm', 'complete', 'awaiting_pm_review', 'completed'),
    ],
    runs: [
      {
        agentId: DEV,
        provider: 'claude',
        model: 'claude-old',
        outcome: 'failed',
        startedAt: at(1),
        endedAt: new Date(at(1).getTime() + 3000),
        limitHit: null,
      },
      {
        agentId: DEV,
        provider: 'codex',
        model: 'gpt-5',
        outcome: 'exited',
        startedAt: at(2),
        endedAt: at(13),
        limitHit: null,
      },
      {
        agentId: QA,
        provider: 'gemini',
        model: 'gemini-2.5-pro',
        outcome: 'exited',
        startedAt: at(14),
        endedAt: at(15),
        limitHit: null,
      },
      {
        agentId: DEV,
        provider: 'codex',
        model: 'gpt-5',
        outcome: 'failed',
        startedAt: at(16),
        endedAt: at(20),
        limitHit: 'memory',
      },
    ],
    findings: [
      { severity: 'major', status: 'resolved' },
      { severity: 'nit', status: 'open' },
    ],
    usage: { inputTokens: 12_000, outputTokens: 3_000, costUsd: 0.42, rows: 5 },
  };
}

describe('the outcome of a task', () => {
  it('names its developer and the CLI and model of their last run, and the reviewers of each stage', () => {
    const outcome = outcomeOf(reworkedSubtask());
    expect(outcome).toMatchObject({
      ownerAgentId: DEV,
      ownerRole: 'developer',
      cli: 'codex',
      model: 'gpt-5',
      reviewers: { qa: QA, documentation: 'doc', pm_review: PM },
      isRoot: false,
      end: 'accepted',
      endedAt: at(30),
      firstClaimedAt: at(2),
    });
  });

  it('counts a QA fail before the pass as no first pass, and one rework round', () => {
    expect(outcomeOf(reworkedSubtask())).toMatchObject({
      qaFirstPass: false,
      qaFails: 1,
      prFails: 0,
      pmRejections: 0,
      ceoRejections: 0,
      reworkRounds: 1,
      findings: { blocker: 0, major: 1, minor: 0, nit: 1 },
      findingsOpen: 1,
    });
  });

  it('times each stage it left, from the status changes', () => {
    expect(outcomeOf(reworkedSubtask()).stageSeconds).toEqual({
      waiting: 120,
      development: (1 + 10 + 5) * 60,
      qa: (2 + 2) * 60,
      documentation: 180,
      pr_review: 0,
      pm_review: 300,
      ceo: 0,
    });
  });

  it('counts its runs: failed on start, stopped by a limit, their seconds, and the ledger', () => {
    expect(outcomeOf(reworkedSubtask())).toMatchObject({
      runs: 4,
      runsFailedOnStart: 1,
      runsStoppedByLimit: 1,
      runSeconds: 3 + 11 * 60 + 60 + 4 * 60,
      inputTokens: 12_000,
      outputTokens: 3_000,
      costUsd: 0.42,
    });
  });

  it('passes QA first time when no fail came before the first pass; no QA at all is neither', () => {
    const inputs = reworkedSubtask();
    const passedFirst = { ...inputs, events: inputs.events.filter((e) => e.action !== 'qa_fail') };
    expect(outcomeOf(passedFirst).qaFirstPass).toBe(true);
    const noQa = { ...inputs, events: inputs.events.filter((e) => !e.action.startsWith('qa_')) };
    expect(outcomeOf(noQa).qaFirstPass).toBeNull();
  });

  it('is open while the task is, and a merged root when the CEO approved a root', () => {
    const inputs = reworkedSubtask();
    expect(outcomeOf({ ...inputs, task: { ...inputs.task, status: 'awaiting_pm_review' } })).toMatchObject({
      end: null,
      endedAt: null,
    });
    const root = outcomeOf({ ...inputs, task: { ...inputs.task, parentTaskId: null } });
    expect(root).toMatchObject({ end: 'merged', isRoot: true });
  });

  it('is the same row however often it is folded, and a later record has a higher watermark', () => {
    const inputs = reworkedSubtask();
    expect(outcomeOf(inputs)).toEqual(outcomeOf(inputs));
    const more = { ...inputs, usage: { ...inputs.usage, rows: inputs.usage.rows + 1 } };
    expect(outcomeOf(more).watermark).toBeGreaterThan(outcomeOf(inputs).watermark);
  });
});
