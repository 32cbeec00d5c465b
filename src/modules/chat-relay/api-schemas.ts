/** TypeBox schemas of /api/telegram/credentials: write-only credentials, only their presence is ever shown. */
import { Type } from 'typebox';

export const TAGS = ['chat-relay'];

export const CredentialsBody = Type.Object(
  {
    bot_token: Type.String({
      maxLength: 200,
      description: 'The Telegram bot token. Empty (with an empty chat_id) clears the credentials.',
    }),
    chat_id: Type.String({
      maxLength: 100,
      description: 'The chat to post to (numeric id or @channel). Empty (with an empty bot_token) clears.',
    }),
  },
  { additionalProperties: false },
);

export const CredentialsStatus = Type.Object(
  { has_credentials: Type.Boolean({ description: 'Whether both bot token and chat id are set.' }) },
  { additionalProperties: false },
);
