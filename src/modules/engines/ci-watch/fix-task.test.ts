import { describe, expect, it } from 'vitest';
import { CI_CONCLUSIONS, type CiStatus } from '../../../platform/forge/index.js';
import { cellPmNotice, fixTaskText, isRed } from './fix-task.js';
import { watchTargets } from './watch-set.js';

const status = (conclusion: CiStatus['conclusion']) =>
  ({ conclusion, runUrl: 'https://github.com/acme/shop/actions/runs/7', runName: 'CI' }) as CiStatus;

describe('isRed', () => {
  it('is red only for failure, timed_out and startup_failure', () => {
    const red = CI_CONCLUSIONS.filter((conclusion) => isRed(status(conclusion)));
    expect(red).toEqual(['failure', 'timed_out', 'startup_failure']);
  });
});

describe('fix task text', () => {
  const [target] = watchTargets([
    {
      id: 'p1',
      slug: 'shop',
      gitUrl: 'https://github.com/acme/shop',
      gitProvider: null,
      forgeApiUrl: null,
      defaultBranch: 'main',
      environments: null,
      protectedBranches: [],
      assignedCell: 'backend',
      ciWatchWorkflow: 'ci.yml',
    },
  ]);

  it('names the project, the failing run and its link', () => {
    const text = fixTaskText(target!, status('failure'));
    expect(text.title).toBe('CI-watch: fix the CI regression on shop');
    expect(text.description).toContain("CI on shop@main concluded 'failure' (CI).");
    expect(text.description).toContain('https://github.com/acme/shop/actions/runs/7');
    expect(text.acceptanceCriteria).toHaveLength(2);
    expect(cellPmNotice(target!, status('timed_out')).subject).toBe('[ci-watch] CI is red on shop');
  });
});
