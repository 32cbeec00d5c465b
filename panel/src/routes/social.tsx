/**
 * Social: the X post queue — drafts the head of marketing wrote, held for the CEO, each with its
 * impact bar, an editable body and a live 280 counter; failed posts stay here to retry. Posted and
 * rejected posts are listed below as history. Polled every 30 s.
 */
import { $api } from '../api/client';
import { XPostCard } from '../components/social/x-post-card';
import { EmptyState, Loading, Page, Section } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { RelativeTime } from '../components/ui/time';
import { usePollInterval } from '../live/live';

export default function SocialPage() {
  const refetchInterval = usePollInterval(30_000);
  const posts = $api.useQuery(
    'get',
    '/api/x/posts',
    { params: { query: { limit: 100 } } },
    { refetchInterval },
  );
  const all = posts.data?.posts ?? [];
  const queue = all.filter((p) => p.status === 'held' || p.status === 'failed' || p.status === 'approved');
  const history = all.filter((p) => p.status === 'posted' || p.status === 'rejected');

  return (
    <Page title={queue.length > 0 ? `Social — ${queue.length} X posts waiting` : 'Social'}>
      <Section
        title={`X post queue (${queue.length})`}
        description="Release and feature posts by the head of marketing. Nothing is posted until you approve it."
      >
        {posts.error && <ProblemNote error={posts.error} prefix="Could not load the X posts" />}
        {posts.isPending && <Loading what="X posts" />}
        {posts.isSuccess && queue.length === 0 && (
          <EmptyState>
            No drafts waiting. The head of marketing’s release and feature posts land here.
          </EmptyState>
        )}
        <div className="grid gap-3 xl:grid-cols-2">
          {queue.map((post) => (
            <XPostCard key={`${post.id}:${post.status}`} post={post} />
          ))}
        </div>
      </Section>
      <Section title={`History (${history.length})`}>
        {posts.isSuccess && history.length === 0 && <EmptyState>Nothing posted or rejected yet.</EmptyState>}
        <ul className="divide-y divide-border">
          {history.map((post) => (
            <li key={post.id} className="py-2" data-testid={`x-history-${post.id}`}>
              <p className="break-words">{post.approved_body ?? post.body}</p>
              <p className="text-muted">
                {post.status === 'posted' ? 'posted' : 'rejected'}{' '}
                <RelativeTime at={post.posted_at ?? post.decided_at ?? post.created_at} /> · impact{' '}
                {post.impact.score}/{post.impact.max}
                {post.reject_reason && <> · “{post.reject_reason}”</>}
                {post.tweet_id && <span className="font-mono text-xs"> · {post.tweet_id}</span>}
              </p>
            </li>
          ))}
        </ul>
      </Section>
    </Page>
  );
}
