/**
 * Intake (`/intake`): the intake interviewer's live chat. Pick the scope and say what is needed;
 * the interviewer asks until it proposes a task (or a batch), shown as a card to edit and confirm;
 * confirming opens the task(s) and links to them.
 */
import { useState } from 'react';
import { fetchClient } from '../api/client';
import { ChatView } from '../components/live-chat/chat-view';
import { DraftCard, type TaskDraft } from '../components/live-chat/draft-card';
import { ScopeForm } from '../components/live-chat/scope-form';
import { useLiveChat } from '../components/live-chat/use-live-chat';
import { Page } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';

export default function IntakePage() {
  const chat = useLiveChat('prompter');
  const [starting, setStarting] = useState(false);
  const [created, setCreated] = useState<Record<string, string[]>>({});

  return (
    <Page title="Intake interview" narrow>
      {chat.state === 'none' ? (
        <>
          <p className="text-muted">
            Tell the intake interviewer what you need; it asks until it can propose a task for you to confirm.
          </p>
          <ProblemNote error={chat.problem} prefix="Could not start the interview" />
          <ScopeForm
            pending={starting}
            onStart={async (scope, initialMessage) => {
              setStarting(true);
              const { data, error } = await fetchClient.POST('/api/prompter/live/start', {
                body: { ...scope, ...(initialMessage.trim() ? { initial_message: initialMessage } : {}) },
              });
              setStarting(false);
              if (error) chat.setProblem(error);
              else if (data) chat.begin(data.session_id);
            }}
          />
        </>
      ) : (
        <ChatView
          chat={chat}
          label="Interview"
          renderItem={(item) => {
            if ((item.kind !== 'draft' && item.kind !== 'batch') || !chat.sessionId) return undefined;
            const index = chat.items.indexOf(item);
            const later = chat.items.slice(index + 1);
            // Only the latest proposal can still be confirmed; a confirmed one shows its tasks.
            const superseded = later.some((i) => i.kind === 'draft' || i.kind === 'batch');
            const confirmedBy = later.find((i) => i.kind === 'created');
            if (superseded && !confirmedBy)
              return <p className="text-xs text-muted">An earlier proposal (replaced).</p>;
            const tasks =
              item.kind === 'draft'
                ? [item.data?.task as TaskDraft]
                : ((item.data?.tasks as TaskDraft[]) ?? []);
            const ids = (confirmedBy?.data?.task_ids as string[] | undefined) ?? created[item.key] ?? null;
            return (
              <DraftCard
                sessionId={chat.sessionId}
                tasks={tasks}
                {...(item.kind === 'batch' ? { batchTitle: String(item.data?.title ?? '') } : {})}
                created={ids}
                onCreated={(taskIds) => setCreated((c) => ({ ...c, [item.key]: taskIds }))}
              />
            );
          }}
        />
      )}
    </Page>
  );
}
