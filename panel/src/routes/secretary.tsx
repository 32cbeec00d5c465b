/**
 * Secretary (`/secretary`): a live chat with the CEO's chief of staff, beside the queue of the
 * directives it proposed for the CEO to confirm or reject.
 */
import { useState } from 'react';
import { fetchClient } from '../api/client';
import { ChatView } from '../components/live-chat/chat-view';
import { DirectiveQueue, useRefreshDirectives } from '../components/live-chat/directive-queue';
import { useLiveChat } from '../components/live-chat/use-live-chat';
import { Button } from '../components/ui/button';
import { Page } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';

export default function SecretaryPage() {
  const refresh = useRefreshDirectives();
  const chat = useLiveChat('secretary', (event) => {
    if (event === 'directive') void refresh();
  });
  const [starting, setStarting] = useState(false);

  return (
    <Page title="Secretary">
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="space-y-3">
          {chat.state === 'none' ? (
            <div className="space-y-3 rounded-lg border border-border bg-surface p-4">
              <p className="text-muted">
                Ask your chief of staff to change the charter, cancel or reprioritize tasks, announce
                something or pass a message on. High-impact actions wait for your confirmation.
              </p>
              <ProblemNote error={chat.problem} prefix="Could not start the chat" />
              <Button
                variant="primary"
                disabled={starting}
                onClick={async () => {
                  setStarting(true);
                  const { data, error } = await fetchClient.POST('/api/secretary/live/start', { body: {} });
                  setStarting(false);
                  if (error) chat.setProblem(error);
                  else if (data) chat.begin(data.session_id);
                }}
              >
                Start a chat
              </Button>
            </div>
          ) : (
            <ChatView
              chat={chat}
              label="Chat with the secretary"
              renderItem={(item) =>
                item.kind === 'directive' ? (
                  <p className="text-xs text-muted">
                    {item.data?.status === 'pending'
                      ? `Proposed a directive (${String(item.data?.kind)}) — see the queue.`
                      : `${String(item.data?.kind)}: ${String(item.data?.status)}`}
                  </p>
                ) : undefined
              }
            />
          )}
        </div>
        <DirectiveQueue />
      </div>
    </Page>
  );
}
