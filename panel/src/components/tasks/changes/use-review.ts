/**
 * What the reviewers said about a task, for its review page: the findings that name a file (shown
 * beside their line), how many are still open, and the latest QA and PR-review outcome from the
 * task's audit trail.
 */
import { useMemo } from 'react';
import { $api } from '../../../api/client';
import type { LineNote } from './diff-rows';

/** The audit actions that are review outcomes, and how they read. */
const OUTCOMES: Record<string, { label: string; good: boolean; of: 'qa' | 'pr' }> = {
  pass: { label: 'QA passed', good: true, of: 'qa' },
  fail: { label: 'QA failed', good: false, of: 'qa' },
  pr_pass: { label: 'PR review passed', good: true, of: 'pr' },
  pr_fail: { label: 'PR review failed', good: false, of: 'pr' },
};

export function useReview(taskId: string) {
  const findings = $api.useQuery('get', '/api/tasks/{id}/findings', { params: { path: { id: taskId } } });
  const events = $api.useQuery('get', '/api/tasks/{id}/events', { params: { path: { id: taskId } } });
  return useMemo(() => {
    const notes: LineNote[] = (findings.data?.findings ?? []).flatMap((f) =>
      f.file
        ? [
            {
              file: f.file,
              line: f.line,
              id8: f.id8,
              severity: f.severity,
              status: f.status,
              text: `Expected ${f.expected}; found ${f.actual}. Fix: ${f.fix}`,
            },
          ]
        : [],
    );
    const open = (findings.data?.summary ?? []).reduce((sum, s) => sum + s.open, 0);
    // The latest outcome of each review, newest event last in the trail.
    const latest = new Map<string, { label: string; good: boolean }>();
    for (const event of events.data?.events ?? []) {
      const outcome = OUTCOMES[event.action];
      if (outcome) latest.set(outcome.of, outcome);
    }
    return { notes, open, verdicts: [...latest.values()] };
  }, [findings.data, events.data]);
}
