/**
 * The environment ladder: ordered rungs from the head branch (PR target) to prod (release
 * target), reference C §7.15. Validation keeps the order, needs non-empty names and branches,
 * unique names and branches, and at least two rungs; an empty ladder is stored as null.
 */

import { branchNameProblem } from '../../platform/git/index.js';
import type { FieldProblem } from '../../platform/http/errors.js';
import type { LadderRung } from './schema.js';

/** The ladder to store (null for none) and any problems, with `body.environments.N.field` paths. */
export function normalizeLadder(
  rungs: readonly LadderRung[] | null | undefined,
  field = 'body.environments',
): { ladder: LadderRung[] | null; problems: FieldProblem[] } {
  if (!rungs || rungs.length === 0) return { ladder: null, problems: [] };
  const problems: FieldProblem[] = [];
  const ladder = rungs.map((rung) => ({ name: rung.name.trim(), branch: rung.branch.trim() }));
  if (ladder.length < 2) {
    problems.push({ field, message: 'a ladder needs at least two rungs (head first, prod last)' });
  }
  const names = new Set<string>();
  const branches = new Set<string>();
  ladder.forEach((rung, index) => {
    if (!rung.name) problems.push({ field: `${field}.${index}.name`, message: 'must not be empty' });
    else if (names.has(rung.name))
      problems.push({ field: `${field}.${index}.name`, message: 'is used twice' });
    const branchIssue = rung.branch ? branchNameProblem(rung.branch) : 'must not be empty';
    if (branchIssue) problems.push({ field: `${field}.${index}.branch`, message: branchIssue });
    else if (branches.has(rung.branch)) {
      problems.push({ field: `${field}.${index}.branch`, message: 'is used by another rung' });
    }
    names.add(rung.name);
    branches.add(rung.branch);
  });
  return { ladder, problems };
}

/** The ladder in force: the declared one, or head and prod both on the default branch. */
export function effectiveLadder(project: {
  environments: LadderRung[] | null;
  defaultBranch: string;
}): LadderRung[] {
  if (project.environments && project.environments.length >= 2) return project.environments;
  return [
    { name: 'head', branch: project.defaultBranch },
    { name: 'prod', branch: project.defaultBranch },
  ];
}
