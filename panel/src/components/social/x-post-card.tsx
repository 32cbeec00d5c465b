/**
 * One held (or failed) X post for the CEO: the draft with its impact bar, an editable body with a
 * live 280-character counter (approve is disabled past it), "Approve & post" — the server posts it
 * through the X API and answers `posted` or `failed` with X's reason (then "Retry") — and "Reject…"
 * with a reason of at least 4 characters, which sends the draft back for a revision.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import twitterText from 'twitter-text';
import { $api, queryKey } from '../../api/client';
import { Button } from '../ui/button';
import { ProblemNote } from '../ui/problem-note';
import { ReasonDialog } from '../ui/reason-dialog';
import { RelativeTime } from '../ui/time';
import { ImpactMeter, type XPost } from './impact-meter';

export const X_MAX_CHARS = 280;
const REJECT_MIN = 4;
/** The length X counts, as the server does (twitter-text): a link is 23, most CJK and emoji 2. */
export const lengthOf = (text: string): number => twitterText.parseTweet(text).weightedLength;

export function XPostCard({ post }: { post: XPost }) {
  const queryClient = useQueryClient();
  const [body, setBody] = useState(post.approved_body ?? post.body);
  const [rejecting, setRejecting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/x/posts') });
  const approve = $api.useMutation('post', '/api/x/posts/{id}/approve', {
    onSuccess: (answer) => {
      if (answer.status === 'posted') toast.success('Posted to X.');
      else toast.error(`X refused the post: ${answer.failure_reason ?? 'unknown reason'}`);
    },
    onSettled: refresh,
  });
  const length = lengthOf(body.trim());
  const over = length > X_MAX_CHARS;
  const failed = post.status === 'failed';
  const edited = body.trim() !== post.body;
  const counterId = `x-post-${post.id}-count`;

  return (
    <article
      aria-label={`${post.kind} post by ${post.drafted_by}`}
      data-testid={`x-post-${post.id}`}
      data-status={post.status}
      className="rounded-lg border border-border bg-surface"
    >
      <header className="flex flex-wrap items-baseline justify-between gap-2 border-b border-border px-4 py-2">
        <p>
          <span className="font-semibold">{post.kind === 'release' ? 'Release' : 'Feature'} post</span>
          {post.release_ref && <span className="ml-2 font-mono text-xs">{post.release_ref}</span>}
          {post.revision_of && (
            <span className="ml-2 rounded bg-info-bg px-1.5 text-xs text-info">revision</span>
          )}
        </p>
        <p className="text-muted">
          by {post.drafted_by} · <RelativeTime at={post.created_at} />
        </p>
      </header>
      {failed && (
        <div role="alert" className="border-b border-danger/40 bg-danger-bg px-4 py-2 text-danger-text">
          <p className="font-medium">Posting failed: {post.failure_reason}</p>
          <p>Fix the cause (credentials, duplicate text, rate limit) and approve again to retry.</p>
        </div>
      )}
      <div className="space-y-3 px-4 py-3">
        <ImpactMeter impact={post.impact} />
        <label className="block space-y-1">
          <span className="block font-medium">Text to post{edited ? ' (edited)' : ''}</span>
          <textarea
            className="min-h-24 w-full rounded-md border border-border bg-surface p-2"
            value={body}
            aria-invalid={over || undefined}
            aria-describedby={counterId}
            onChange={(event) => setBody(event.target.value)}
          />
        </label>
        <p
          id={counterId}
          data-testid="x-post-counter"
          className={over ? 'font-semibold text-danger-text' : 'text-muted'}
        >
          {length}/{X_MAX_CHARS}
          {over ? ` — ${length - X_MAX_CHARS} over the limit` : ''}
        </p>
        {approve.error && <ProblemNote error={approve.error} prefix="Could not approve" />}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="primary"
            disabled={over || length === 0 || approve.isPending}
            onClick={() =>
              approve.mutate({ params: { path: { id: post.id } }, body: edited ? { body: body.trim() } : {} })
            }
          >
            {approve.isPending ? 'Posting…' : failed ? 'Retry approve & post' : 'Approve & post'}
          </Button>
          <Button disabled={approve.isPending} onClick={() => setRejecting(true)}>
            Reject…
          </Button>
        </div>
      </div>
      {rejecting && <RejectDialog post={post} onClose={() => setRejecting(false)} onDone={refresh} />}
    </article>
  );
}

function RejectDialog({ post, onClose, onDone }: { post: XPost; onClose: () => void; onDone: () => void }) {
  const reject = $api.useMutation('post', '/api/x/posts/{id}/reject', {
    onSuccess: () => {
      toast.success('Sent back to the head of marketing for a revision.');
      onClose();
    },
    onSettled: onDone,
  });
  return (
    <ReasonDialog
      title="Reject this post"
      description="The head of marketing sees your reason and drafts a revision."
      fieldLabel="Reason"
      minLength={REJECT_MIN}
      tooShortMessage={`Give a reason of at least ${REJECT_MIN} characters.`}
      pending={reject.isPending}
      error={reject.error}
      errorPrefix="Could not reject"
      onSubmit={(reason) => reject.mutate({ params: { path: { id: post.id } }, body: { reason } })}
      onClose={onClose}
    />
  );
}
