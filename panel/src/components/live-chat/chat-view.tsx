/**
 * A live chat's transcript and composer, shared by the intake and secretary pages: the CEO's turns
 * on the right, the assistant's (streamed as it is written) on the left, tool uses as small notes,
 * errors with the server's message and remediation; the page renders proposals (`renderItem`).
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { ProblemNote } from '../ui/problem-note';
import type { ChatItem, useLiveChat } from './use-live-chat';

type Chat = ReturnType<typeof useLiveChat>;

export function ChatView({
  chat,
  label,
  renderItem,
}: {
  chat: Chat;
  label: string;
  renderItem?: (item: ChatItem) => ReactNode;
}) {
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll on every new item
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [chat.items]);
  const submit = async () => {
    if (await chat.send(text)) setText('');
  };

  return (
    <section aria-label={label} className="flex flex-col rounded-lg border border-border bg-surface">
      <div className="flex items-center justify-between border-b border-border px-4 py-2">
        <h2 className="text-[15px] font-semibold">{label}</h2>
        <div className="flex items-center gap-2">
          <span data-testid="chat-state" data-state={chat.state} className="text-xs text-muted">
            {chat.state === 'live' ? (chat.busy ? 'Answering…' : 'Live') : chat.state}
          </span>
          {chat.state === 'live' && (
            <Button size="sm" variant="danger" onClick={() => void chat.stop()}>
              End chat
            </Button>
          )}
          {(chat.state === 'ended' || chat.state === 'lost') && (
            <Button size="sm" onClick={chat.reset}>
              New chat
            </Button>
          )}
        </div>
      </div>
      <div
        className="max-h-[55vh] min-h-40 space-y-2 overflow-y-auto p-4"
        data-testid="transcript"
        aria-live="polite"
      >
        {chat.items.map((item) => (
          <div key={item.key}>{renderItem?.(item) ?? <DefaultItem item={item} />}</div>
        ))}
        {chat.state === 'lost' && (
          <p role="alert" className="text-danger-text">
            Live connection lost — start a new chat.
          </p>
        )}
        {chat.state === 'ended' && <p className="text-muted">This chat has ended.</p>}
        <div ref={end} />
      </div>
      <ProblemNote error={chat.problem} prefix="Could not send" />
      {chat.state === 'live' && (
        <form
          className="flex items-end gap-2 border-t border-border p-3"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <label htmlFor={`${label}-message`} className="sr-only">
            Your message
          </label>
          <textarea
            id={`${label}-message`}
            rows={2}
            className="w-full rounded-md border border-border bg-surface px-2 py-1"
            value={text}
            placeholder="Write a message…"
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                void submit();
              }
            }}
          />
          <Button type="submit" variant="primary" disabled={chat.busy || !text.trim()}>
            Send
          </Button>
        </form>
      )}
    </section>
  );
}

function DefaultItem({ item }: { item: ChatItem }) {
  if (item.kind === 'user')
    return (
      <p
        data-testid="user-turn"
        className="ml-auto w-fit max-w-[80%] rounded-lg bg-accent px-3 py-2 text-accent-text"
      >
        {item.text}
      </p>
    );
  if (item.kind === 'assistant')
    return (
      <p
        data-testid="assistant-turn"
        className="w-fit max-w-[80%] whitespace-pre-wrap rounded-lg bg-surface-2 px-3 py-2"
      >
        {item.text}
        {item.live && <span aria-hidden> ▍</span>}
      </p>
    );
  if (item.kind === 'tool_use')
    return <p className="text-xs text-muted">Used {String(item.data?.name ?? 'a tool')}</p>;
  if (item.kind === 'error')
    return (
      <div
        role="alert"
        className="rounded-md border border-danger/40 bg-danger-bg px-3 py-2 text-danger-text"
      >
        <p>{item.text}</p>
        {typeof item.data?.remediate === 'string' && <p className="mt-1">{item.data.remediate}</p>}
      </div>
    );
  return null;
}
