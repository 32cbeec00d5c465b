import type { Db } from '../../platform/db/client.js';
import { type CreateTaskInput, openTasksFromSource } from '../tasks/index.js';

/** A repository's identity: lower case, without trailing slashes or a `.git` suffix. */
export function repoKey(gitUrl: string): string {
  let key = gitUrl.trim().toLowerCase().replace(/\/+$/, '');
  if (key.endsWith('.git')) key = key.slice(0, -'.git'.length);
  return key.replace(/\/+$/, '');
}

/** Stored under the task's `markers.origin`: which engine opened it, for which repo and dedup key. */
export interface EngineOrigin {
  engine: string;
  repo: string;
  /** What one open task stands for within its repo (a workflow, a command). */
  key: string;
}

export interface OpenOrigination {
  taskId: string;
  repo: string;
  key: string;
}

/** The engine's tasks that are not completed or cancelled, with their origin markers. */
export async function openOriginations(db: Db, source: string): Promise<OpenOrigination[]> {
  const rows = await openTasksFromSource(db, source);
  return rows.flatMap((row) => {
    const origin = row.markers.origin as Partial<EngineOrigin> | undefined;
    if (typeof origin?.repo !== 'string' || typeof origin.key !== 'string') return [];
    return [{ taskId: row.id, repo: origin.repo, key: origin.key }];
  });
}

export interface OriginationLimits {
  /** Tasks one cycle may open. */
  maxPerCycle: number;
  /** Open tasks of this engine one repository may have at once. */
  maxOpenPerRepo: number;
}

/** `open`: go ahead; `duplicate`: an open task already stands for it; the caps: held back. */
export type OriginationVerdict = 'open' | 'duplicate' | 'cycle_cap' | 'repo_cap';

/** One cycle's bookkeeping of what is open and what it opened; pure. */
export class OriginationLedger {
  private readonly keys = new Set<string>();
  private readonly openPerRepo = new Map<string, number>();
  private openedThisCycle = 0;

  constructor(
    private readonly limits: OriginationLimits,
    open: readonly OpenOrigination[],
  ) {
    for (const task of open) this.count(task.repo, task.key);
  }

  verdict(repo: string, key: string): OriginationVerdict {
    if (this.keys.has(dedupKey(repo, key))) return 'duplicate';
    if (this.openedThisCycle >= this.limits.maxPerCycle) return 'cycle_cap';
    if ((this.openPerRepo.get(repo) ?? 0) >= this.limits.maxOpenPerRepo) return 'repo_cap';
    return 'open';
  }

  /** Records a task opened this cycle. */
  opened(repo: string, key: string): void {
    this.openedThisCycle += 1;
    this.count(repo, key);
  }

  /** True once the cycle cap is reached: nothing more can open this cycle. */
  get cycleFull(): boolean {
    return this.openedThisCycle >= this.limits.maxPerCycle;
  }

  private count(repo: string, key: string): void {
    this.keys.add(dedupKey(repo, key));
    this.openPerRepo.set(repo, (this.openPerRepo.get(repo) ?? 0) + 1);
  }
}

const dedupKey = (repo: string, key: string) => `${repo}\n${key}`;

export interface EngineTaskDraft {
  title: string;
  description: string;
  acceptanceCriteria: string[];
  projectId: string;
  origin: EngineOrigin;
  /** The main PM's id or slug; null leaves the task unassigned. */
  mainPm: string | null;
}

/**
 * The ordinary task an engine opens: a main-PM planning root into the project, pending and
 * confirmed (ready to start, no approval needed), following the normal pipeline from there.
 */
export function engineTaskInput(draft: EngineTaskDraft): CreateTaskInput {
  return {
    title: draft.title,
    description: draft.description,
    acceptance_criteria: draft.acceptanceCriteria,
    team: 'main_pm',
    task_type: 'planning',
    nature: 'technical',
    complexity: 'medium',
    project_id: draft.projectId,
    assigned_to: draft.mainPm,
    source: draft.origin.engine,
    confirmed: true,
    markers: { origin: draft.origin },
  };
}
