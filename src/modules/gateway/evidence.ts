/**
 * The `evidence` block (reference A §8.7) returned by the review claims (claim_review,
 * claim_doc_task, claim_gate_review, claim_pr_review), by i_am_done and by the `evidence` do-tool:
 * the pull request, the diff summary against the task's base, the commits and files changed, the
 * developer's summary, the acceptance criteria, open findings (and, for review claims, the whole
 * ledger of earlier rounds), the description and parent context. A leg that cannot be read is
 * listed under `evidence_gaps` instead of failing the call.
 */

import { messageOf } from '../../platform/message-of.js';
import { renderFinding } from '../findings/index.js';
import type { TaskView } from '../tasks/index.js';
import { parentContext } from './briefing.js';
import type { GatewayServices } from './context.js';

/** The diff is capped here even if the port sends more. */
export const EVIDENCE_DIFF_CAP = 20_000;

export async function assembleEvidence(
  s: GatewayServices,
  task: TaskView,
  options: { priorFindings?: boolean } = {},
): Promise<Record<string, unknown>> {
  const gaps: string[] = [];
  const leg = async <T>(name: string, read: () => Promise<T>): Promise<T | null> => {
    try {
      return await read();
    } catch (error) {
      gaps.push(`${name}: ${messageOf(error)}`);
      return null;
    }
  };
  const [diff, commits, ledger, parents] = await Promise.all([
    leg('diff', () => s.git.diffSummary(task)),
    leg('commits', () => s.git.commitsOf(task)),
    leg('findings', () => s.findings.ledger(task.id, { limit: 200 })),
    leg('parent_context', () => parentContext(s, task)),
  ]);
  const diffText = diff?.diff ?? '';
  const truncated = (diff?.truncated ?? false) || diffText.length > EVIDENCE_DIFF_CAP;
  const findings = ledger?.findings ?? [];
  const notes = task.notes as Record<string, { summary?: unknown } | undefined>;
  return {
    pr_number: task.pr_number,
    pr_url: task.pr_url,
    branch_name: task.branch_name,
    pr_diff_summary: diff
      ? {
          base: diff.base,
          head: diff.head,
          diff: truncated ? `${diffText.slice(0, EVIDENCE_DIFF_CAP)}\n… [diff truncated]` : diffText,
          truncated,
        }
      : null,
    commits: (commits ?? []).map((c) => ({ sha: c.sha, message: c.message, author: c.author, at: c.at })),
    files_changed: diff?.files_changed ?? [],
    dev_summary: notes.developer?.summary ?? null,
    acceptance_criteria: task.acceptance_criteria,
    description: task.description,
    ...(parents && parents.length > 0 ? { parent_context: parents } : {}),
    revision_findings: findings
      .filter((f) => f.status === 'open')
      .slice(0, 10)
      .map(renderFinding),
    ...(options.priorFindings && findings.length > 0
      ? {
          prior_findings: findings.slice(0, 50).map((f) => ({
            id: f.id.slice(0, 8),
            round: f.round,
            origin: f.origin,
            status: f.status,
            severity: f.severity,
            file: f.file,
            line: f.line,
            expected: f.expected,
            actual: f.actual,
            fix: f.fix,
            evidence: f.evidence?.slice(0, 300) ?? null,
          })),
        }
      : {}),
    ...(gaps.length > 0 ? { evidence_gaps: gaps } : {}),
  };
}
