/**
 * An experiment's arms side by side and what they support saying. Pure: the figures of each arm
 * (summed from its tasks' outcome rows) in, the rates with their intervals and the verdict out. The
 * verdict names an arm better on a measure only where the two 95 % intervals do not overlap — first-
 * pass QA (higher is better), then failure on start (lower is better) — and quotes the cost per
 * accepted task beside it; otherwise it says "no difference yet" with the sample sizes.
 */
import { describeRate, type Interval, MIN_SAMPLE, separated, wilson } from './stats.js';

export type Arm = 'a' | 'b';
export const ARMS: readonly Arm[] = ['a', 'b'];
export const armLabel = (arm: Arm) => arm.toUpperCase();

/** One arm's sums over its tasks (every task it was given; ended or not). */
export interface ArmSums {
  tasks: number;
  ended: number;
  qa_n: number;
  qa_first: number;
  rework: number;
  findings: number;
  cost: number;
  accepted: number;
  accepted_cost: number;
  runs: number;
  failed_on_start: number;
}

export interface ArmFigures {
  tasks: number;
  ended: number;
  first_pass_qa: Interval | null;
  mean_rework_rounds: number | null;
  findings_per_task: number | null;
  cost_usd: number;
  cost_per_accepted_task: number | null;
  runs: number;
  failure_on_start: Interval | null;
}

export interface Verdict {
  /** The arm the data shows better, or null ("no difference yet"). */
  better: Arm | null;
  text: string;
}

export const EMPTY_SUMS: ArmSums = {
  tasks: 0,
  ended: 0,
  qa_n: 0,
  qa_first: 0,
  rework: 0,
  findings: 0,
  cost: 0,
  accepted: 0,
  accepted_cost: 0,
  runs: 0,
  failed_on_start: 0,
};

export function armFigures(sums: ArmSums): ArmFigures {
  return {
    tasks: sums.tasks,
    ended: sums.ended,
    first_pass_qa: wilson(sums.qa_first, sums.qa_n),
    mean_rework_rounds: sums.ended > 0 ? sums.rework / sums.ended : null,
    findings_per_task: sums.ended > 0 ? sums.findings / sums.ended : null,
    cost_usd: sums.cost,
    cost_per_accepted_task: sums.accepted > 0 ? sums.accepted_cost / sums.accepted : null,
    runs: sums.runs,
    failure_on_start: wilson(sums.failed_on_start, sums.runs),
  };
}

const other = (arm: Arm): Arm => (arm === 'a' ? 'b' : 'a');
const rate = (interval: Interval | null) => describeRate(interval, interval?.n ?? 0);

/** "at 0.6× the cost per accepted task", when both arms have one. */
function costBeside(better: ArmFigures, worse: ArmFigures): string {
  const mine = better.cost_per_accepted_task;
  const theirs = worse.cost_per_accepted_task;
  if (mine === null || theirs === null || theirs <= 0) return '';
  return `, at ${(mine / theirs).toFixed(1)}× the cost per accepted task`;
}

export function verdictOf(arms: Record<Arm, ArmFigures>): Verdict {
  const lines: string[] = [];
  let better: Arm | null = null;
  const qa = separated(arms.a.first_pass_qa, arms.b.first_pass_qa);
  if (qa) {
    const worse = arms[other(qa)];
    lines.push(
      `${armLabel(qa)}: first-pass QA ${rate(arms[qa].first_pass_qa)} vs ${rate(worse.first_pass_qa)}${costBeside(arms[qa], worse)}`,
    );
    better = qa;
  }
  // Fewer failures on start is better: the arm whose interval is higher is the worse one.
  const failing = separated(arms.a.failure_on_start, arms.b.failure_on_start);
  if (failing) {
    const steady = other(failing);
    lines.push(
      `${armLabel(steady)}: fails on start ${rate(arms[steady].failure_on_start)} vs ${rate(arms[failing].failure_on_start)}`,
    );
    better ??= steady;
  }
  if (lines.length === 0) {
    const n = (figures: ArmFigures) => figures.first_pass_qa?.n ?? 0;
    const thin = n(arms.a) < MIN_SAMPLE || n(arms.b) < MIN_SAMPLE ? `; ${MIN_SAMPLE} a side at least` : '';
    return { better: null, text: `no difference yet (n = ${n(arms.a)} vs ${n(arms.b)}${thin})` };
  }
  return { better, text: lines.join('; ') };
}
