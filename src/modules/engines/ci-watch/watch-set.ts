/**
 * Which repositories a CI-watch pass reads: the opted-in projects collapsed to one target per
 * (repository, workflow), so the cell-projects of one monorepo share a single read and a single
 * fix task while two workflows of one repository are watched apart. Pure.
 */
import { effectiveLadder, type LadderRung } from '../../projects/index.js';
import { repoKey } from '../origination.js';

export interface WatchedProject {
  id: string;
  slug: string;
  gitUrl: string;
  gitProvider: string | null;
  forgeApiUrl: string | null;
  defaultBranch: string;
  environments: LadderRung[] | null;
  protectedBranches: string[];
  assignedCell: string | null;
  ciWatchWorkflow: string;
}

export interface WatchTarget {
  /** The project the fix task goes into: the first by slug of those sharing the target. */
  project: WatchedProject;
  /** Every project sharing the repository and workflow, the canonical one first. */
  members: WatchedProject[];
  repo: string;
  workflow: string;
  /** The head rung of the canonical project's ladder (its default branch without a ladder). */
  branch: string;
}

export function watchTargets(projects: readonly WatchedProject[]): WatchTarget[] {
  const bySlug = [...projects].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const targets = new Map<string, WatchTarget>();
  for (const project of bySlug) {
    const repo = repoKey(project.gitUrl);
    const workflow = project.ciWatchWorkflow.trim();
    const key = `${repo}\n${workflow}`;
    const target = targets.get(key);
    if (target) target.members.push(project);
    else {
      const branch = effectiveLadder(project)[0]!.branch;
      targets.set(key, { project, members: [project], repo, workflow, branch });
    }
  }
  return [...targets.values()];
}
