/** The pure CI selection rules: which run of a branch or commit speaks for it, and Gitea's state mapping. */
import { describe, expect, it } from 'vitest';
import {
  branchStatusFromRuns,
  commitStatusFromRuns,
  conclusionOf,
  giteaConclusion,
  type WorkflowRunLike,
} from './ci-selection.js';

let ids = 0;
const run = (fields: Partial<WorkflowRunLike> & { head_sha: string }): WorkflowRunLike => ({
  name: 'CI',
  run_attempt: 1,
  status: 'completed',
  conclusion: 'success',
  workflow_id: 1,
  html_url: `https://github.com/acme/shop/actions/runs/${++ids}`,
  ...fields,
});

describe('branchStatusFromRuns', () => {
  it('lets a green re-run of the head supersede its red first attempt', () => {
    const rerun = run({ head_sha: 'b', run_attempt: 2 });
    const status = branchStatusFromRuns([run({ head_sha: 'b', conclusion: 'failure' }), rerun]);
    expect(status).toEqual({ conclusion: 'success', runUrl: rerun.html_url, runName: 'CI', headSha: 'b' });
  });

  it('never lets a green run on an older commit mask a red head', () => {
    const status = branchStatusFromRuns([
      run({ head_sha: 'b', conclusion: 'failure' }),
      run({ head_sha: 'a', run_attempt: 3 }),
    ]);
    expect(status).toMatchObject({ conclusion: 'failure', headSha: 'b' });
  });

  it('skips runs that have not completed, and knows nothing without runs', () => {
    expect(
      branchStatusFromRuns([
        run({ head_sha: 'b', status: 'in_progress', conclusion: null }),
        run({ head_sha: 'a' }),
      ]),
    ).toMatchObject({ conclusion: 'success', headSha: 'a' });
    expect(branchStatusFromRuns([])).toEqual({
      conclusion: 'unknown',
      runUrl: null,
      runName: null,
      headSha: null,
    });
  });
});

describe('commitStatusFromRuns', () => {
  it('is pending while the newest attempt of a workflow still runs', () => {
    const status = commitStatusFromRuns(
      [
        run({ head_sha: 'c', run_attempt: 2, status: 'queued', conclusion: null }),
        run({ head_sha: 'c', conclusion: 'failure' }),
      ],
      'c',
    );
    expect(status.conclusion).toBe('pending');
  });

  it('answers the worst of each workflow’s newest attempt, ignoring other commits', () => {
    const runs = [
      run({ head_sha: 'c', workflow_id: 2, conclusion: 'timed_out', name: 'Lint' }),
      run({ head_sha: 'c', workflow_id: 1, run_attempt: 2 }),
      run({ head_sha: 'c', workflow_id: 1, conclusion: 'failure' }),
      run({ head_sha: 'd', workflow_id: 1, conclusion: 'failure' }),
    ];
    expect(commitStatusFromRuns(runs, 'c')).toMatchObject({
      conclusion: 'timed_out',
      runName: 'Lint',
      headSha: 'c',
    });
    expect(commitStatusFromRuns(runs.slice(1, 3), 'c')).toMatchObject({ conclusion: 'success' });
    expect(commitStatusFromRuns(runs, 'e')).toMatchObject({
      conclusion: 'unknown',
      runUrl: null,
      headSha: 'e',
    });
  });
});

describe('conclusion mappings', () => {
  it('maps GitHub conclusions', () => {
    expect(conclusionOf('startup_failure')).toBe('startup_failure');
    expect(conclusionOf('skipped')).toBe('success');
    expect(conclusionOf('action_required')).toBe('pending');
    expect(conclusionOf('stale')).toBe('unknown');
    expect(conclusionOf(null)).toBe('unknown');
  });

  it('maps Gitea combined states', () => {
    expect(giteaConclusion('success', 2)).toBe('success');
    expect(giteaConclusion('failure', 1)).toBe('failure');
    expect(giteaConclusion('error', 1)).toBe('failure');
    expect(giteaConclusion('pending', 1)).toBe('pending');
    expect(giteaConclusion('', 0)).toBe('unknown');
    expect(giteaConclusion('pending', 0)).toBe('unknown');
    expect(giteaConclusion('warning', 1)).toBe('unknown');
  });
});
