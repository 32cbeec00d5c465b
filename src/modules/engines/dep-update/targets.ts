/**
 * Which repositories a dependency-update pass probes: the opted-in projects (a non-empty
 * `dep_update_command` and a git URL) collapsed to one target per (repository, command), so the
 * cell-projects of one monorepo running the same command share one probe and one task, while two
 * different commands on one repository are probed apart. Pure.
 */
import { effectiveLadder, type LadderRung } from '../../projects/index.js';
import { repoKey } from '../origination.js';
import { explicitLockfilePaths } from './lockfiles.js';

export interface DepUpdateProject {
  id: string;
  slug: string;
  gitUrl: string;
  defaultBranch: string;
  environments: LadderRung[] | null;
  depUpdateCommand: string | null;
  depUpdatePaths: string | null;
  /** Where its sandboxed command may reach (its package registry), beside the operator's list. */
  agentNetworkAllow: string[];
}

export interface DepUpdateTarget {
  /** The project the task goes into: the first by slug of those sharing the target. */
  project: DepUpdateProject;
  /** Every project sharing the repository and command, the canonical one first. */
  members: DepUpdateProject[];
  repo: string;
  /** The trimmed command: the dedup key within the repository. */
  command: string;
  /** The branch probed: the head rung of the project's ladder (its default branch without one). */
  branch: string;
  /** The canonical project's explicit lockfile paths; null = inferred from the clone. */
  paths: string[] | null;
}

const bySlug = (a: DepUpdateProject, b: DepUpdateProject) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

export function depUpdateTargets(projects: readonly DepUpdateProject[]): DepUpdateTarget[] {
  const targets = new Map<string, DepUpdateTarget>();
  for (const project of [...projects].sort(bySlug)) {
    const command = project.depUpdateCommand?.trim() ?? '';
    const gitUrl = project.gitUrl.trim();
    if (!command || !gitUrl) continue;
    const repo = repoKey(gitUrl);
    const key = `${repo}\n${command}`;
    const target = targets.get(key);
    if (target) {
      target.members.push(project);
      continue;
    }
    targets.set(key, {
      project,
      members: [project],
      repo,
      command,
      branch: effectiveLadder(project)[0]!.branch,
      paths: explicitLockfilePaths(project.depUpdatePaths),
    });
  }
  return [...targets.values()];
}
