/**
 * The scripted agents' behaviour: one deterministic step per role and task state, taken through
 * the real gateway. A step reads the task fresh, makes the calls that state asks of its role
 * (a developer plans, writes a file in its worktree, commits, opens the PR and submits; QA passes
 * unless the title says "[fail]" — then it fails the first round only, so a revision happens and
 * the work still converges; the documenter writes a doc file and commits it; the PR reviewer
 * passes the gate; a cell PM plans, delegates one leaf to its first developer, completes reviewed
 * leaves and submits the cell up; the main PM plans, delegates one cell task, submits the root and
 * hands it to the CEO). Work sent back to a PM (the CEO's request for changes) is planned again and
 * one more subtask delegated for each round, so the revision is real work through the pipeline.
 * A step answers whether it moved the task; the run ends when one did not.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SpawnSpec } from '../contract.js';
import { characterOf, findingsDrawn } from './characters.js';
import type { Envelope, ScriptedGatewayClient, ScriptTask } from './gateway-client.js';

export interface StepContext {
  client: ScriptedGatewayClient;
  spec: SpawnSpec;
  /** The run's id: what the developer writes differs from run to run, so a revision always commits. */
  runId: string;
}

/** One step on `task`; true when the task moved (the script then looks at it again). */
export type RoleStep = (ctx: StepContext, task: ScriptTask) => Promise<boolean>;

/** The title marker that makes the scripted QA fail the first round. */
export const FAIL_MARKER = '[fail]';

/** What a developer's model (its character) leaves in its change for QA to find: how many findings. */
const FLAW = /<!-- scripted findings: (\d+) -->/;

const TERMINAL = ['completed', 'cancelled'];
const id8 = (task: ScriptTask) => task.id.slice(0, 8);
const criteriaOf = (task: ScriptTask): string[] =>
  task.acceptance_criteria
    .map((c) => (typeof c === 'string' ? c : String((c as { text?: unknown }).text ?? '')))
    .filter(Boolean);
const mine = (ctx: StepContext, task: ScriptTask) => task.active_claimant_id === ctx.spec.agent.id;

/** Writes `content` at `path` in the agent's working directory (its worktree of the task). */
function writeInWorkspace(ctx: StepContext, path: string, content: string): void {
  const file = join(ctx.spec.workspace, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  ctx.client.say(`wrote ${path} in its worktree`);
}

/** Runs calls in order while each succeeds; true when all did. */
async function all(...calls: (() => Promise<Envelope>)[]): Promise<boolean> {
  for (const call of calls) if (!(await call()).ok) return false;
  return true;
}

const developer: RoleStep = async (ctx, task) => {
  const { client, spec } = ctx;
  if (['pending', 'claimed', 'needs_revision'].includes(task.status)) {
    return (
      await client.verb('i_will_work_on', {
        task_id: task.id,
        plan: `Scripted simulation: deliver "${task.title}" by adding one file under scripted/ in the task worktree that records what the task asks, commit it on the task branch, open its pull request and submit it for QA.`,
        steps: [
          {
            title: 'Write the change',
            description: 'Write scripted/<task>.md in the task worktree describing the delivered change.',
          },
          {
            title: 'Commit and submit',
            description: 'Commit the file with the commit tool, open the pull request, then call i_am_done.',
          },
        ],
        technical_considerations: ['This is a scripted simulation: no model writes real code.'],
        risks: [{ risk: 'The simulated change is trivial', mitigation: 'It only exercises the pipeline.' }],
      })
    ).ok;
  }
  if (task.status !== 'in_progress') return false;
  const path = `scripted/${id8(task)}.md`;
  const character = characterOf(spec.model);
  const flaws = character ? findingsDrawn(character, task.id, task.revision_count) : 0;
  writeInWorkspace(
    ctx,
    path,
    `# ${task.title}\n\n${task.description}\n\nRevision ${task.revision_count}, written by the scripted ${spec.agent.slug} (run ${ctx.runId}${character ? `, model ${character.model}` : ''}).\n` +
      (flaws > 0 ? `\n<!-- scripted findings: ${flaws} -->\n` : ''),
  );
  const committed = await client.tool('commit', {
    task_id: task.id,
    message: `feat: scripted change for "${task.title}"`.slice(0, 200),
  });
  if (!committed.ok) return false;
  const sha = (committed.data?.commit as { sha?: string } | undefined)?.sha;
  if (!task.pr_created && !(await client.verb('open_pr', { task_id: task.id })).ok) return false;
  const open = (await client.findings(task.id)).filter((finding) => finding.status === 'open');
  return (
    await client.verb('i_am_done', {
      task_id: task.id,
      notes: `Scripted developer: wrote and committed ${path}; the pull request is open.`,
      ...(open.length > 0
        ? {
            resolved_findings: open.map((finding) => ({
              finding_id: finding.id,
              ...(sha ? { commit: sha } : {}),
              note: 'Revised by the scripted developer.',
            })),
          }
        : {}),
    })
  ).ok;
};

/** The findings the developer's change carries for QA, as its worktree of the task shows it. */
function flawsIn(ctx: StepContext, task: ScriptTask): number {
  const file = join(ctx.spec.workspace, `scripted/${id8(task)}.md`);
  if (!existsSync(file)) return 0;
  return Number(FLAW.exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
}

const qa: RoleStep = async (ctx, task) => {
  const { client } = ctx;
  if (task.status !== 'awaiting_qa') return false;
  if (!mine(ctx, task) && !(await client.verb('claim_review', { task_id: task.id })).ok) return false;
  const marked = task.title.includes(FAIL_MARKER) && task.revision_count === 0;
  const flaws = marked ? 1 : flawsIn(ctx, task);
  if (flaws > 0) {
    return (
      await client.verb('fail', {
        task_id: task.id,
        notes: marked
          ? `Scripted QA fails the first round of tasks marked ${FAIL_MARKER}.`
          : `Scripted QA found ${flaws} problem(s) in revision ${task.revision_count}.`,
        findings: Array.from({ length: flaws }, (_, i) => ({
          severity: i === 0 ? 'major' : 'minor',
          expected: 'A second revision of the change',
          actual: marked
            ? `The first revision of a task marked ${FAIL_MARKER}`
            : `Problem ${i + 1} of ${flaws} in revision ${task.revision_count}`,
          fix: 'Revise the change and submit it again.',
        })),
      })
    ).ok;
  }
  const criteria = criteriaOf(task);
  return (
    await client.verb('pass', {
      task_id: task.id,
      notes:
        'Scripted QA: read the diff of the task branch and checked it against every acceptance criterion; this is a simulated review.',
      criteria_verified: (criteria.length > 0 ? criteria : [task.title]).map((criterion) => ({
        criterion,
        evidence: 'the scripted change is on the task branch',
      })),
    })
  ).ok;
};

const documenter: RoleStep = async (ctx, task) => {
  const { client } = ctx;
  if (task.status !== 'awaiting_documentation') return false;
  if (!mine(ctx, task) && !(await client.verb('claim_doc_task', { task_id: task.id })).ok) return false;
  const path = `docs/scripted/${id8(task)}.md`;
  writeInWorkspace(ctx, path, `# ${task.title}\n\nDocumented by the scripted ${ctx.spec.agent.slug}.\n`);
  return all(
    () =>
      client.tool('commit', {
        task_id: task.id,
        message: `docs: document "${task.title}"`.slice(0, 200),
        files: [path],
      }),
    () =>
      client.verb('i_documented', {
        task_id: task.id,
        notes: `Scripted documenter wrote ${path}.`,
        files: [path],
      }),
  );
};

const prReviewer: RoleStep = async (ctx, task) => {
  const { client } = ctx;
  if (task.status !== 'awaiting_pr_review') return false;
  if (!mine(ctx, task) && !(await client.verb('claim_gate_review', { task_id: task.id })).ok) return false;
  return (
    await client.verb('pr_pass', {
      task_id: task.id,
      notes: 'Scripted gate review: the assembled diff matches the plan and carries its docs.',
    })
  ).ok;
};

/** The cell PM a main PM delegates to: by a word of the title, else the backend cell. */
function cellPmFor(task: ScriptTask): string {
  if (/\b(ux|design)\b/i.test(task.title)) return 'ux-pm';
  if (/\b(front ?end|ui|web|page)\b/i.test(task.title)) return 'fe-pm';
  return 'be-pm';
}

/** A cell PM's first developer: `be-pm` → `be-dev-1` (the roster's naming). */
const firstDeveloperOf = (pmSlug: string) => `${pmSlug.replace(/-pm$/, '')}-dev-1`;

/** The subtask of a round: round 0 delivers the task, each later one answers a request for changes. */
function delegation(ctx: StepContext, task: ScriptTask, round: number): Record<string, unknown> {
  const criteria = criteriaOf(task)
    .slice(0, 7)
    .map((c) => c.slice(0, 200));
  const revision = round === 0 ? '' : `Revision ${round}: `;
  const answers = round === 0 ? '' : ` This round answers request for changes ${round}.`;
  const base = {
    task_id: task.id,
    nature: 'technical',
    acceptance_criteria: criteria.length > 0 ? criteria : [`"${task.title}" is delivered`.slice(0, 200)],
  };
  if (ctx.spec.agent.role === 'main_pm') {
    return {
      ...base,
      title: `${revision}Cell: ${task.title}`.slice(0, 200),
      description: `Deliver "${task.title}" in this cell (delegated by the scripted main PM).${answers}`,
      assigned_to: cellPmFor(task),
      task_type: 'planning',
      complexity: 'medium',
    };
  }
  return {
    ...base,
    title: `${revision}Implement: ${task.title}`.slice(0, 200),
    description: `Implement "${task.title}" (delegated by the scripted cell PM).${answers}`,
    assigned_to: firstDeveloperOf(ctx.spec.agent.slug),
    task_type: 'code',
    complexity: 'low',
    intends_to_touch: ['scripted/**'],
  };
}

const pm: RoleStep = async (ctx, task) => {
  const { client, spec } = ctx;
  const notes = `Scripted ${spec.agent.slug}: reviewed the work and its evidence.`;
  switch (task.status) {
    case 'pending':
    case 'claimed':
    case 'needs_revision':
      return (
        await client.verb('i_will_plan', {
          task_id: task.id,
          plan: `Scripted plan for "${task.title}".`.slice(0, 2000),
          approach:
            'Scripted simulation: the whole change goes to one team as a single subtask, which is developed, checked by QA, documented, reviewed at the gate and merged back up the chain to the CEO.',
          sub_tasks: [
            {
              title: task.title.slice(0, 200),
              description:
                'One subtask carrying the whole change, delegated to the team that owns this part of the product.',
            },
          ],
        })
      ).ok;
    case 'paused':
      return (await client.verb('resume', { task_id: task.id })).ok;
    case 'in_progress': {
      const subtasks = await client.subtasks(task.id);
      // One subtask for the task, and one more each time it came back for revision.
      if (subtasks.length <= task.revision_count)
        return (await client.verb('delegate', delegation(ctx, task, subtasks.length))).ok;
      if (subtasks.some((sub) => !TERMINAL.includes(sub.status))) {
        client.say(`waits for the subtasks of ${id8(task)}`);
        return false;
      }
      const rollUp = spec.agent.role === 'main_pm' ? 'submit_root' : 'submit_up';
      return (await client.verb(rollUp, { task_id: task.id, notes })).ok;
    }
    case 'awaiting_pm_review':
      return (await client.verb('complete', { task_id: task.id, notes })).ok;
    default:
      return false;
  }
};

/** The step of each role the scripted runtime plays; other roles only look for work. */
export const ROLE_STEPS: Readonly<Record<string, RoleStep>> = {
  developer,
  qa,
  documenter,
  pr_reviewer: prReviewer,
  cell_pm: pm,
  main_pm: pm,
};
