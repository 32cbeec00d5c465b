/** The pure rule of a credentials write: both set, both cleared, or refused. */
import { badRequest } from '../../platform/http/errors.js';

export type CredentialsChange = { action: 'set'; botToken: string; chatId: string } | { action: 'clear' };

/** Both non-empty → set; both empty → clear; exactly one → 400 `credentials_incomplete`. */
export function credentialsChange(botToken: string, chatId: string): CredentialsChange {
  const token = botToken.trim();
  const chat = chatId.trim();
  if (token && chat) return { action: 'set', botToken: token, chatId: chat };
  if (!token && !chat) return { action: 'clear' };
  throw badRequest(
    'credentials_incomplete',
    'bot_token and chat_id are set together (both non-empty) or cleared together (both empty)',
  );
}
