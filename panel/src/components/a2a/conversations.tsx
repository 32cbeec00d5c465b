/**
 * Agent-to-agent conversations, live: the list (most recently active first) and, for the one in
 * `?conversation=`, its messages in full. An `a2a.message` frame on /ws/system carries only an
 * excerpt, so the list is invalidated (live/invalidation.ts) and the open conversation fetches its
 * full text again over REST when a frame names it; the new message is briefly highlighted.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { $api, queryKey } from '../../api/client';
import type { paths } from '../../api/schema';
import { useLiveEvent, usePollInterval } from '../../live/live';
import { EmptyState, Loading } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';
import { ShortId } from '../ui/short-id';
import { TableScroll } from '../ui/table-scroll';
import { RelativeTime } from '../ui/time';

type Conversation =
  paths['/api/a2a/admin/conversations']['get']['responses'][200]['content']['application/json']['conversations'][number];

/** Conversations, optionally only those `agent` (slug) takes part in, with the open one beside them. */
export function Conversations({ agent }: { agent?: string }) {
  const [search, setSearch] = useSearchParams();
  const open = search.get('conversation');
  const refetchInterval = usePollInterval(30_000);
  const list = $api.useQuery(
    'get',
    '/api/a2a/admin/conversations',
    { params: { query: { limit: 100, ...(agent ? { agent } : {}) } } },
    { refetchInterval },
  );
  const conversations = list.data?.conversations ?? [];
  const select = (id: string) =>
    setSearch(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('conversation', id);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <div>
        {list.error && <ProblemNote error={list.error} prefix="Could not load the conversations" />}
        {list.isPending && <Loading what="conversations" />}
        {list.isSuccess && conversations.length === 0 && (
          <EmptyState>
            No conversations yet. They appear here, live, when agents message each other (or you message one
            through <code className="font-mono">POST /api/a2a/conversations</code>).
          </EmptyState>
        )}
        {conversations.length > 0 && (
          <TableScroll label="Conversations">
            <table className="w-full text-left" data-testid="conversations">
              <thead className="border-b border-border text-xs text-muted">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Between
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Topic
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Messages
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Last
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {conversations.map((c) => (
                  <ConversationRow key={c.id} conversation={c} selected={c.id === open} onOpen={select} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </div>
      {open ? (
        <Transcript id={open} conversation={conversations.find((c) => c.id === open)} />
      ) : (
        conversations.length > 0 && <EmptyState>Open a conversation to read it.</EmptyState>
      )}
    </div>
  );
}

function ConversationRow({
  conversation: c,
  selected,
  onOpen,
}: {
  conversation: Conversation;
  selected: boolean;
  onOpen: (id: string) => void;
}) {
  return (
    <tr className={selected ? 'bg-surface-2' : ''} aria-selected={selected}>
      <td className="px-3 py-2">
        <button
          type="button"
          onClick={() => onOpen(c.id)}
          className="text-left font-medium text-accent underline"
          aria-label={`Open the conversation between ${c.participant_a.slug} and ${c.participant_b.slug}`}
        >
          <span className="font-mono">{c.participant_a.slug}</span> ↔{' '}
          <span className="font-mono">{c.participant_b.slug}</span>
        </button>
        {c.status !== 'open' && <span className="ml-1 text-xs text-muted">({c.status})</span>}
      </td>
      <td className="px-3 py-2 break-words">
        {c.topic ?? <span className="text-muted">—</span>}
        {c.task_id && (
          <>
            {' '}
            <Link to={`/tasks/${c.task_id}`} className="text-accent underline">
              <ShortId id={c.task_id} />
            </Link>
          </>
        )}
      </td>
      <td className="px-3 py-2">{c.message_count ?? '—'}</td>
      <td className="px-3 py-2 whitespace-nowrap">
        <RelativeTime at={c.updated_at} />
      </td>
    </tr>
  );
}

function Transcript({ id, conversation }: { id: string; conversation: Conversation | undefined }) {
  const queryClient = useQueryClient();
  const [fresh, setFresh] = useState<string | null>(null);
  const messages = $api.useQuery('get', '/api/a2a/admin/conversations/{id}/messages', {
    params: { path: { id }, query: { limit: 100 } },
  });
  useLiveEvent('a2a.message', (frame) => {
    if (frame.conversation_id !== id) return;
    setFresh(typeof frame.message_id === 'string' ? frame.message_id : null);
    void queryClient.invalidateQueries({
      queryKey: queryKey('get', '/api/a2a/admin/conversations/{id}/messages'),
    });
  });
  const title = conversation
    ? `${conversation.participant_a.slug} ↔ ${conversation.participant_b.slug}`
    : 'Conversation';
  return (
    <section
      aria-label={title}
      className="rounded-lg border border-border bg-surface"
      data-testid="transcript"
    >
      <header className="border-b border-border px-4 py-3">
        <h2 className="text-[15px] font-semibold">{title}</h2>
        <p className="text-muted">
          {conversation?.topic ?? 'No topic'} · <ShortId id={id} />
        </p>
      </header>
      <div className="p-4">
        {messages.error && <ProblemNote error={messages.error} prefix="Could not load the messages" />}
        {messages.isPending && <Loading what="messages" />}
        {messages.data?.has_more && <p className="mb-2 text-xs text-muted">Older messages are not shown.</p>}
        {messages.isSuccess && messages.data.messages.length === 0 && (
          <EmptyState>No messages yet.</EmptyState>
        )}
        <ol className="space-y-3" aria-live="polite">
          {messages.data?.messages.map((m) => (
            <li
              key={m.id}
              data-testid={`message-${m.id}`}
              className={`rounded-md border px-3 py-2 ${m.id === fresh ? 'border-accent bg-surface-2' : 'border-border'}`}
            >
              <p className="text-xs text-muted">
                <span className="font-mono">{m.sender_slug}</span> · {m.kind}
                {m.requires_response && ' · awaits a response'} · <RelativeTime at={m.created_at} />
              </p>
              <p className="mt-1 whitespace-pre-wrap break-words">{m.body}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
