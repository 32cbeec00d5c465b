import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ArmSums, armFigures, EMPTY_SUMS, verdictOf } from './experiment-verdict.js';
import { armOf } from './experiments.js';

const arm = (sums: Partial<ArmSums>) => armFigures({ ...EMPTY_SUMS, ...sums });

describe('an experiment’s verdict', () => {
  it('names the better arm only where the first-pass QA intervals separate, with the cost beside it', () => {
    // 45/50 = 90 % against 22/40 = 55 %: the 95 % intervals do not meet.
    const verdict = verdictOf({
      a: arm({ tasks: 40, ended: 40, qa_n: 40, qa_first: 22, accepted: 40, accepted_cost: 40 }),
      b: arm({ tasks: 50, ended: 50, qa_n: 50, qa_first: 45, accepted: 50, accepted_cost: 30 }),
    });
    expect(verdict).toEqual({
      better: 'b',
      text: 'B: first-pass QA 90 % [79–96] vs 55 % [40–69], at 0.6× the cost per accepted task',
    });
  });

  it('says "no difference yet" with the sample sizes where the intervals overlap or are thin', () => {
    expect(
      verdictOf({
        a: arm({ tasks: 30, ended: 30, qa_n: 30, qa_first: 20 }),
        b: arm({ tasks: 30, ended: 30, qa_n: 30, qa_first: 24 }),
      }),
    ).toEqual({ better: null, text: 'no difference yet (n = 30 vs 30)' });
    // 9/9 against 0/9 would separate, but nine is below the sample the rates need.
    expect(
      verdictOf({
        a: arm({ tasks: 9, ended: 9, qa_n: 9, qa_first: 9 }),
        b: arm({ tasks: 9, ended: 9, qa_n: 9, qa_first: 0 }),
      }),
    ).toEqual({ better: null, text: 'no difference yet (n = 9 vs 9; 10 a side at least)' });
  });

  it('names the arm that fails on start less, where those intervals separate', () => {
    const verdict = verdictOf({
      a: arm({ tasks: 12, runs: 12, failed_on_start: 12 }),
      b: arm({ tasks: 12, runs: 20, failed_on_start: 0 }),
    });
    expect(verdict).toEqual({ better: 'b', text: 'B: fails on start 0 % [0–16] vs 100 % [76–100]' });
  });

  it('figures each arm from its sums: rework and findings per ended task, cost per accepted task', () => {
    expect(
      arm({
        tasks: 5,
        ended: 4,
        qa_n: 4,
        qa_first: 3,
        rework: 2,
        findings: 6,
        cost: 9,
        accepted: 3,
        accepted_cost: 6,
      }),
    ).toMatchObject({
      mean_rework_rounds: 0.5,
      findings_per_task: 1.5,
      cost_usd: 9,
      cost_per_accepted_task: 2,
    });
    expect(arm({})).toMatchObject({
      first_pass_qa: null,
      cost_per_accepted_task: null,
      mean_rework_rounds: null,
    });
  });
});

describe('the arm of a task', () => {
  it('is the same every time, and arm B gets about its share', () => {
    const experiment = randomUUID();
    const tasks = Array.from({ length: 4000 }, () => randomUUID());
    const arms = tasks.map((task) => armOf(experiment, task, 30));
    expect(tasks.map((task) => armOf(experiment, task, 30))).toEqual(arms);
    expect(arms.filter((a) => a === 'b').length / tasks.length).toBeCloseTo(0.3, 1);
    expect(
      tasks.every((task) => armOf(experiment, task, 1) === 'a' || armOf(experiment, task, 30) === 'b'),
    ).toBe(true);
  });
});
