/**
 * One Bot API call, `sendMessage`, with plain fetch and a timeout. The bot token is part of the
 * URL, so no URL and no raw error message ever leaves this file: failures are reported as
 * `TelegramSendError` whose message is built from the status or error kind only, scrubbed of the
 * token for good measure.
 */

export interface TelegramTarget {
  apiUrl: string;
  botToken: string;
  chatId: string;
  timeoutMs: number;
}

export class TelegramSendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TelegramSendError';
  }
}

/** Replaces every occurrence of `secret` in `text`. */
export const scrub = (text: string, secret: string): string =>
  secret ? text.split(secret).join('[redacted]') : text;

export async function sendTelegramMessage(target: TelegramTarget, text: string): Promise<void> {
  const url = `${target.apiUrl.replace(/\/+$/, '')}/bot${target.botToken}/sendMessage`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        chat_id: target.chatId,
        text,
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      }),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (error) {
    const kind = error instanceof Error ? error.name : 'Error';
    const reason =
      kind === 'TimeoutError' ? `timed out after ${target.timeoutMs} ms` : `request failed (${kind})`;
    throw new TelegramSendError(scrub(`Telegram sendMessage ${reason}`, target.botToken));
  }
  const payload = (await response.json().catch(() => null)) as { ok?: boolean; description?: string } | null;
  if (!response.ok || payload?.ok !== true) {
    const description =
      typeof payload?.description === 'string' ? `: ${payload.description.slice(0, 200)}` : '';
    throw new TelegramSendError(
      scrub(`Telegram sendMessage answered HTTP ${response.status}${description}`, target.botToken),
    );
  }
}
