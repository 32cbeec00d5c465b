import type { Db } from '../../../platform/db/client.js';
import type { Team } from '../../../platform/http/auth/identity.js';
import { messageOf } from '../../../platform/message-of.js';
import { openTasksFromSource, RELEASE_PROPOSAL_SOURCE, SYSTEM_ACTOR } from '../../tasks/index.js';
import type { EngineDeps } from '../deps.js';
import { repoKey } from '../origination.js';
import { type ReleaseReport, reportDescription } from './report.js';

export const RELEASE_SOURCE = RELEASE_PROPOSAL_SOURCE;
/** The task marker holding the report. */
export const REPORT_MARKER = 'release_report';

export interface OpenProposal {
  taskId: string;
  title: string;
  status: string;
  createdAt: Date;
  report: ReleaseReport;
}

/** The open proposal (the newest, should there ever be two), or null. */
export async function openProposal(db: Db): Promise<OpenProposal | null> {
  const [row] = await openTasksFromSource(db, RELEASE_SOURCE).limit(1);
  if (!row) return null;
  const report = row.markers[REPORT_MARKER] as ReleaseReport | undefined;
  if (!report || typeof report.version !== 'string') return null;
  return { taskId: row.id, title: row.title, status: row.status, createdAt: row.createdAt, report };
}

export type ProposalOpening =
  | { opened: true; taskId: string; notifyError: string | null }
  | { opened: false; reason: string };

export async function openReleaseProposal(
  deps: Pick<EngineDeps, 'agents' | 'tasks' | 'notifications'>,
  project: { id: string; gitUrl: string },
  report: ReleaseReport,
): Promise<ProposalOpening> {
  const [secretary] = await deps.agents.byRole('secretary');
  if (!secretary) return { opened: false, reason: 'there is no Secretary to own the proposal' };
  const task = await deps.tasks.create(
    {
      title: `Release ${report.version}`,
      description: reportDescription(report),
      acceptance_criteria: [
        `The CEO approves or rejects release ${report.version} (${report.bump} bump) with the gaps in view.`,
        `Once approved, ${report.tag} is published only after the release commit's own CI is green.`,
      ],
      team: (secretary.team ?? 'board') as Team,
      task_type: 'administrative',
      nature: 'non_technical',
      complexity: 'low',
      project_id: project.id,
      assigned_to: secretary.id,
      source: RELEASE_SOURCE,
      held: true,
      confirmed: false,
      markers: {
        [REPORT_MARKER]: report,
        origin: { engine: RELEASE_SOURCE, repo: repoKey(project.gitUrl), key: report.version },
      },
    },
    SYSTEM_ACTOR,
  );
  const notifyError = await notifyCeo(deps, task.id, report).then(
    () => null,
    (error: unknown) => `the CEO was not notified: ${messageOf(error)}`,
  );
  return { opened: true, taskId: task.id, notifyError };
}

async function notifyCeo(
  deps: Pick<EngineDeps, 'agents' | 'notifications'>,
  taskId: string,
  report: ReleaseReport,
): Promise<void> {
  const [ceo] = await deps.agents.byRole('ceo');
  if (!ceo) return;
  const gaps = report.gaps.length ? `${report.gaps.length} gap(s) to weigh.` : 'No gaps found.';
  await deps.notifications.send(
    {
      type: 'approval',
      priority: 'high',
      recipients: [ceo.id],
      subject: `[release] ${report.version} is ready for your review`,
      body: [
        `Release ${report.version} (${report.bump} bump from ${report.current_version}) is proposed: ${report.commit_count} commit(s) since ${report.last_tag ?? 'the beginning'}, gate ${report.gate.state}. ${gaps}`,
        'Approve or reject it on the release card (GET /api/release/proposal).',
      ].join('\n'),
      related_task_id: taskId,
    },
    { id: SYSTEM_ACTOR.id, role: SYSTEM_ACTOR.role },
  );
}
