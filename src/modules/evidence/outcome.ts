/**
 * What one task's record says about how its work went — the evidence read model's row — as a pure
 * fold over the task's audit trail (task_events), its runs (agent_runs), its findings and its usage
 * ledger sums. The same inputs always give the same row: the incremental keeper and `gaffer evidence
 * rebuild` both call this, so a rebuild reproduces what was kept.
 *
 * - The owner is whoever did the task's own work: its developer (the agent that submitted it to QA
 *   or verification — a `marksAuthor` action), else the agent that completed it, else its assignee.
 *   Its CLI and model are those of the owner's last run on the task, as that run recorded them.
 * - First-pass QA: QA passed it with no QA fail before the first pass (null: never reached QA).
 * - Rework rounds, by source: a QA fail, a PR-review fail, a PM's request for changes, the CEO's
 *   rejection.
 * - Stage time: wall seconds in each stage's states, from the status changes of the trail — the
 *   stages it has left (the one it is in counts once it leaves it), so the row never depends on
 *   when it was folded.
 * - Runs: how many, how many failed on start (a failed run that ended within FAST_FAILURE_SECONDS),
 *   how many a limit stopped, and the agents' run seconds.
 */

/** A failed run that ended this soon after it started failed on start (as the dispatcher judges it). */
export const FAST_FAILURE_SECONDS = 10;

export interface OutcomeEvent {
  id: number;
  actorId: string;
  actorRole: string;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  at: Date;
}

export interface OutcomeRun {
  agentId: string;
  provider: string;
  model: string | null;
  outcome: string | null;
  startedAt: Date;
  endedAt: Date | null;
  limitHit: string | null;
}

export interface OutcomeInputs {
  task: {
    id: string;
    rootTaskId: string;
    parentTaskId: string | null;
    projectId: string | null;
    team: string;
    taskType: string;
    status: string;
    assignedTo: string | null;
    createdAt: Date;
  };
  /** The task's audit trail, oldest first. */
  events: readonly OutcomeEvent[];
  /** The task's runs, oldest first. */
  runs: readonly OutcomeRun[];
  findings: readonly { severity: string; status: string }[];
  usage: { inputTokens: number; outputTokens: number; costUsd: number; rows: number };
}

export const STAGES = [
  'waiting',
  'development',
  'qa',
  'documentation',
  'pr_review',
  'pm_review',
  'ceo',
] as const;
export type Stage = (typeof STAGES)[number];

const STAGE_OF: Readonly<Record<string, Stage>> = {
  backlog: 'waiting',
  pending: 'waiting',
  blocked: 'waiting',
  paused: 'waiting',
  claimed: 'development',
  in_progress: 'development',
  verifying: 'development',
  needs_revision: 'development',
  awaiting_qa: 'qa',
  awaiting_documentation: 'documentation',
  awaiting_pr_review: 'pr_review',
  awaiting_pm_review: 'pm_review',
  awaiting_ceo_approval: 'ceo',
};

const SEVERITIES = ['blocker', 'major', 'minor', 'nit'] as const;

/** Actions that hand the worker's result on for review: their actor is the task's developer. */
const AUTHORING = new Set(['submit_qa', 'submit_verification', 'submit_for_review']);
const ENDING = new Set(['complete', 'ceo_approve', 'pr_review_done', 'docs_complete']);

export interface TaskOutcome {
  taskId: string;
  rootTaskId: string;
  isRoot: boolean;
  projectId: string | null;
  team: string;
  taskType: string;
  ownerAgentId: string | null;
  ownerRole: string | null;
  cli: string | null;
  model: string | null;
  /** Who did each reviewing stage (the last actor of its verdict), by stage. */
  reviewers: Partial<Record<'qa' | 'documentation' | 'pr_review' | 'pm_review' | 'ceo', string>>;
  qaFirstPass: boolean | null;
  qaFails: number;
  prFails: number;
  pmRejections: number;
  ceoRejections: number;
  reworkRounds: number;
  findings: Record<(typeof SEVERITIES)[number], number>;
  findingsOpen: number;
  firstClaimedAt: Date | null;
  endedAt: Date | null;
  /** `merged` (the CEO approved a root), `accepted` (a subtask completed), `cancelled`, or null while open. */
  end: 'merged' | 'accepted' | 'cancelled' | null;
  stageSeconds: Record<Stage, number>;
  runs: number;
  runsFailedOnStart: number;
  runsStoppedByLimit: number;
  runSeconds: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Monotonic measure of the inputs seen (events, ended runs, ledger rows): a later fold never has less. */
  watermark: number;
}

const seconds = (from: Date, to: Date) => Math.max(0, (to.getTime() - from.getTime()) / 1000);

/** A run that failed (not stopped by a limit) within FAST_FAILURE_SECONDS of its start. */
export const failedOnStart = (run: Pick<OutcomeRun, 'outcome' | 'limitHit' | 'startedAt' | 'endedAt'>) =>
  run.outcome === 'failed' &&
  run.limitHit === null &&
  run.endedAt !== null &&
  seconds(run.startedAt, run.endedAt) < FAST_FAILURE_SECONDS;

function stageTimes(events: readonly OutcomeEvent[]): Record<Stage, number> {
  const times = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<Stage, number>;
  let status: string | null = null;
  let since: Date | null = null;
  for (const event of events) {
    if (event.toStatus === null || event.toStatus === status) continue;
    if (status !== null && since !== null) {
      const stage = STAGE_OF[status];
      if (stage) times[stage] += seconds(since, event.at);
    }
    status = event.toStatus;
    since = event.at;
  }
  for (const stage of STAGES) times[stage] = Math.round(times[stage]);
  return times;
}

function endOf(inputs: OutcomeInputs): TaskOutcome['end'] {
  if (inputs.task.status === 'cancelled') return 'cancelled';
  if (inputs.task.status !== 'completed') return null;
  return inputs.task.parentTaskId === null ? 'merged' : 'accepted';
}

/** The row of one task's outcome. */
export function outcomeOf(inputs: OutcomeInputs): TaskOutcome {
  const { task, events, runs, findings, usage } = inputs;
  const count = (actions: readonly string[]) => events.filter((e) => actions.includes(e.action)).length;
  const lastActor = (actions: readonly string[]) =>
    events.findLast((e) => actions.includes(e.action))?.actorId;

  const firstPass = events.findIndex((e) => e.action === 'qa_pass');
  const firstFail = events.findIndex((e) => e.action === 'qa_fail');
  const qaFirstPass = firstPass < 0 ? (firstFail < 0 ? null : false) : firstFail < 0 || firstFail > firstPass;

  const author = events.findLast((e) => AUTHORING.has(e.action));
  const finisher = events.findLast((e) => ENDING.has(e.action) && e.actorRole !== 'ceo');
  const ownerAgentId = author?.actorId ?? finisher?.actorId ?? task.assignedTo ?? null;
  const ownerRole = author?.actorRole ?? finisher?.actorRole ?? null;
  const ownerRun = runs.findLast((run) => run.agentId === ownerAgentId);

  const reviewers: TaskOutcome['reviewers'] = {};
  const stageActors = {
    qa: ['qa_pass', 'qa_fail'],
    documentation: ['docs_complete'],
    pr_review: ['pr_pass', 'pr_fail', 'pr_review_done'],
    pm_review: ['complete', 'request_changes'],
    ceo: ['ceo_approve', 'ceo_reject', 'ceo_reject_to_pool'],
  } as const;
  for (const [stage, actions] of Object.entries(stageActors) as [
    keyof typeof stageActors,
    readonly string[],
  ][]) {
    const actor = lastActor(actions);
    if (actor) reviewers[stage] = actor;
  }

  const qaFails = count(['qa_fail']);
  const prFails = count(['pr_fail']);
  const pmRejections = count(['request_changes']);
  const ceoRejections = count(['ceo_reject', 'ceo_reject_to_pool']);
  const end = endOf(inputs);
  const endedAt = end === null ? null : (events.findLast((e) => e.toStatus === task.status)?.at ?? null);
  const ended = runs.filter((run) => run.endedAt !== null);
  return {
    taskId: task.id,
    rootTaskId: task.rootTaskId,
    isRoot: task.parentTaskId === null,
    projectId: task.projectId,
    team: task.team,
    taskType: task.taskType,
    ownerAgentId,
    ownerRole,
    cli: ownerRun?.provider ?? null,
    model: ownerRun?.model ?? null,
    reviewers,
    qaFirstPass,
    qaFails,
    prFails,
    pmRejections,
    ceoRejections,
    reworkRounds: qaFails + prFails + pmRejections + ceoRejections,
    findings: Object.fromEntries(
      SEVERITIES.map((severity) => [severity, findings.filter((f) => f.severity === severity).length]),
    ) as TaskOutcome['findings'],
    findingsOpen: findings.filter((f) => f.status === 'open').length,
    firstClaimedAt: events.find((e) => e.action === 'claim' || e.toStatus === 'claimed')?.at ?? null,
    endedAt,
    end,
    stageSeconds: stageTimes(events),
    runs: runs.length,
    runsFailedOnStart: ended.filter(failedOnStart).length,
    runsStoppedByLimit: runs.filter((run) => run.limitHit !== null).length,
    runSeconds: Math.round(ended.reduce((sum, run) => sum + seconds(run.startedAt, run.endedAt!), 0)),
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: usage.costUsd,
    watermark: (events.at(-1)?.id ?? 0) + ended.length + usage.rows,
  };
}
