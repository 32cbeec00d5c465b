/**
 * The held release proposal, for the CEO to decide on: version and bump (and the rule that chose
 * it), why it qualifies, readiness gaps, the changelog preview and the files the bump writes.
 * "Approve & publish" asks first, then the executor runs in the background: a blue band with a
 * spinner while `execute_in_flight` (both buttons disabled, the proposal polled); a failure shows
 * its reason in a red band and the primary button becomes "Retry approve & publish". "Reject with
 * changes" needs the changes (10+ characters) and cancels the proposal.
 */
import { useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { $api, type paths, queryKey } from '../../api/client';
import { problemOf } from '../../api/problem';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ProblemNote } from '../ui/problem-note';
import { ReasonDialog } from '../ui/reason-dialog';
import { ShortId } from '../ui/short-id';
import { RelativeTime } from '../ui/time';
import { changeSummary, failureReason } from './release-labels';

export type Proposal = paths['/api/release/proposal']['get']['responses'][200]['content']['application/json'];

const REJECT_MIN = 10;

const GATE_LOOK: Record<string, string> = {
  green: 'text-ok',
  red: 'text-danger',
  pending: 'text-info',
  unknown: 'text-muted',
};

export function ReleaseProposalCard({
  proposal,
  onApproved,
}: {
  proposal: Proposal;
  onApproved: () => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/release/proposal') });
  const approve = $api.useMutation('post', '/api/release/proposal/approve', {
    onSuccess: () => {
      setConfirming(false);
      onApproved();
    },
    onSettled: refresh,
  });
  const { report } = proposal;
  const inFlight = proposal.execute_in_flight;
  const failure = failureReason(proposal.execute_status);
  const retry = failure !== null;
  const approveProblem = approve.error ? problemOf(approve.error) : null;

  return (
    <article
      aria-label={`Release ${proposal.version}`}
      data-testid="release-proposal"
      data-execute-status={proposal.execute_status ?? 'none'}
      className="rounded-lg border border-border bg-surface"
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-border px-4 py-3">
        <div>
          <h2 className="text-[15px] font-semibold">
            Release <span className="font-mono">{proposal.version}</span>{' '}
            <span className="font-normal text-muted">({proposal.bump})</span>
          </h2>
          <p className="mt-0.5 text-muted">
            {report.last_tag ? (
              <>
                since <span className="font-mono text-xs">{report.last_tag}</span>
              </>
            ) : (
              'first release'
            )}{' '}
            · <span className="font-mono text-xs">{report.head_branch}</span> →{' '}
            <span className="font-mono text-xs">{report.prod_branch}</span> · proposed{' '}
            <RelativeTime at={proposal.created_at} /> · task <ShortId id={proposal.task_id} />
          </p>
        </div>
        <p className="text-muted">
          gate{' '}
          <span className={`font-semibold ${GATE_LOOK[report.gate.state] ?? ''}`}>● {report.gate.state}</span>
        </p>
      </header>

      {inFlight && (
        <div
          role="status"
          data-testid="release-running"
          className="flex items-center gap-2 border-b border-info/30 bg-info-bg px-4 py-2 text-info"
        >
          <LoaderCircle size={16} className="animate-spin" aria-hidden />
          <span>
            Publishing <span className="font-mono">{proposal.version}</span> — running in the background (may
            take tens of minutes)
            {proposal.execute_detail ? ` · ${proposal.execute_detail}` : ''}
          </span>
        </div>
      )}
      {!inFlight && failure && (
        <div
          role="alert"
          data-testid="release-failed"
          className="border-b border-danger/40 bg-danger-bg px-4 py-2 text-danger-text"
        >
          <p className="font-medium">Last attempt failed: {failure}</p>
          {proposal.execute_detail && <p className="mt-1 break-words">{proposal.execute_detail}</p>}
        </div>
      )}

      <div className="space-y-3 px-4 py-3">
        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
          <dt className="text-muted">Why this bump</dt>
          <dd>{proposal.bump_rule}</dd>
          <dt className="text-muted">Why it qualifies</dt>
          <dd>
            {changeSummary(report.commit_count, report.changes)} — {report.threshold}
          </dd>
          {report.breaking.length > 0 && (
            <>
              <dt className="text-muted">Breaking</dt>
              <dd>{report.breaking.join('; ')}</dd>
            </>
          )}
          <dt className="text-muted">Readiness gaps</dt>
          <dd data-testid="release-gaps">
            {report.gaps.length === 0 ? (
              'none'
            ) : (
              <ul className="list-disc pl-4">
                {report.gaps.map((gap) => (
                  <li key={`${gap.category}:${gap.detail}`}>
                    <span className="font-medium">{gap.category.replaceAll('_', ' ')}</span>: {gap.detail}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
        <details>
          <summary className="cursor-pointer font-medium">
            Changelog (
            {report.changelog_source === 'unreleased' ? 'curated [Unreleased]' : 'generated from commits'})
          </summary>
          <pre className="mt-2 max-h-72 overflow-auto rounded-md border border-border bg-surface-2 p-3 font-mono text-xs whitespace-pre-wrap">
            {report.changelog_entry}
          </pre>
        </details>
        <details>
          <summary className="cursor-pointer font-medium">
            Files to bump ({report.canonical_files.length})
          </summary>
          <ul className="mt-2 space-y-0.5 font-mono text-xs">
            {report.canonical_files.map((file) => (
              <li key={file}>{file}</li>
            ))}
          </ul>
        </details>

        {approveProblem && !confirming && (
          <ProblemNote
            error={approve.error}
            prefix={
              approveProblem.code === 'release_in_flight'
                ? 'Another approve of this release is already running'
                : 'Approve & publish was refused'
            }
          />
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="primary"
            disabled={inFlight || approve.isPending}
            onClick={() => setConfirming(true)}
          >
            {retry ? 'Retry approve & publish' : 'Approve & publish'}
          </Button>
          <Button disabled={inFlight || approve.isPending} onClick={() => setRejecting(true)}>
            Reject with changes
          </Button>
        </div>
      </div>

      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`${retry ? 'Retry' : 'Approve'} and publish ${proposal.version}?`}
        description={`The executor merges the ladder into ${report.prod_branch}, bumps the version and the CHANGELOG, checks the head CI, commits and pushes chore(release): ${proposal.version}, waits for its CI and publishes ${proposal.tag} through the forge. It runs in the background and may take tens of minutes.`}
      >
        {approve.error && <ProblemNote error={approve.error} />}
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button
            variant="primary"
            disabled={approve.isPending || inFlight}
            onClick={() => approve.mutate({})}
          >
            {approve.isPending ? 'Starting…' : 'Yes, approve & publish'}
          </Button>
        </div>
      </Dialog>
      {rejecting && <RejectDialog proposal={proposal} onClose={() => setRejecting(false)} />}
    </article>
  );
}

function RejectDialog({ proposal, onClose }: { proposal: Proposal; onClose: () => void }) {
  const queryClient = useQueryClient();
  const reject = $api.useMutation('post', '/api/release/proposal/reject', {
    onSuccess: () => {
      toast.success(`Release ${proposal.version} rejected; the next readiness pass may propose again.`);
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/release/proposal') }),
  });
  return (
    <ReasonDialog
      title="Reject with changes"
      description={`Release ${proposal.version} is cancelled with the changes you require; a later readiness pass may propose a fresh one.`}
      fieldLabel="Required changes"
      minLength={REJECT_MIN}
      tooShortMessage={`Say what must change in at least ${REJECT_MIN} characters.`}
      pending={reject.isPending}
      error={reject.error}
      errorPrefix="Could not reject"
      onSubmit={(changes) => reject.mutate({ body: { required_changes: changes } })}
      onClose={onClose}
    />
  );
}
