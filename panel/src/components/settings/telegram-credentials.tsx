/**
 * The Telegram relay credentials: write-only. The form never shows a stored value, only whether
 * both are set; they are set together (both fields) or cleared together.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { $api, queryKey } from '../../api/client';
import { Button } from '../ui/button';
import { Section } from '../ui/page';
import { ProblemNote } from '../ui/problem-note';

export function TelegramCredentials() {
  const queryClient = useQueryClient();
  const status = $api.useQuery('get', '/api/telegram/credentials');
  const [botToken, setBotToken] = useState('');
  const [chatId, setChatId] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const save = $api.useMutation('post', '/api/telegram/credentials', {
    onSuccess: () => {
      setBotToken('');
      setChatId('');
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/telegram/credentials') }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!botToken.trim() || !chatId.trim()) {
      setInvalid('Enter both the bot token and the chat id (or use Clear to remove both).');
      return;
    }
    setInvalid(null);
    save.mutate({ body: { bot_token: botToken.trim(), chat_id: chatId.trim() } });
  }

  const isSet = status.data?.has_credentials;
  return (
    <Section
      title="Telegram relay"
      description="The bot that relays the CEO's notifications to Telegram. The values are stored encrypted and never shown again."
    >
      {status.error && <ProblemNote error={status.error} prefix="Could not read the credentials state" />}
      <p className="mb-3" data-testid="telegram-state">
        Credentials:{' '}
        <span className={`font-semibold ${isSet ? 'text-ok' : 'text-muted'}`}>
          {status.isPending ? '…' : isSet ? 'set' : 'not set'}
        </span>
      </p>
      <form onSubmit={submit} className="grid max-w-[720px] gap-3 sm:grid-cols-2" noValidate>
        <label className="space-y-1">
          <span className="block font-medium">Bot token</span>
          <input
            type="password"
            autoComplete="off"
            className="h-8 w-full rounded-md border border-border bg-surface px-2"
            value={botToken}
            onChange={(e) => setBotToken(e.target.value)}
            placeholder={isSet ? '•••••• (set; type to replace)' : '123456:ABC…'}
          />
        </label>
        <label className="space-y-1">
          <span className="block font-medium">Chat id</span>
          <input
            autoComplete="off"
            className="h-8 w-full rounded-md border border-border bg-surface px-2"
            value={chatId}
            onChange={(e) => setChatId(e.target.value)}
            placeholder={isSet ? '(set; type to replace)' : '-1001234567890 or @channel'}
          />
        </label>
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Save both
          </Button>
          <Button
            variant="secondary"
            disabled={save.isPending || !isSet}
            onClick={() => save.mutate({ body: { bot_token: '', chat_id: '' } })}
          >
            Clear both
          </Button>
        </div>
        {invalid && (
          <p role="alert" className="text-danger sm:col-span-2">
            {invalid}
          </p>
        )}
        {save.error && (
          <div className="sm:col-span-2">
            <ProblemNote error={save.error} prefix="Could not save the credentials" />
          </div>
        )}
      </form>
    </Section>
  );
}
