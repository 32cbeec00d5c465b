/** The chat text of a relayed notification: Telegram HTML with every dynamic value escaped. */

export interface RelayedNotification {
  type: string;
  priority: string;
  subject: string;
  body: string;
  /** Identity id of the sender. */
  sender: string;
  /** Recipient slugs. */
  recipients: string[];
  ackRequired: boolean;
  /** 0 for the original send, k for the k-th re-escalation. */
  escalation: number;
  /** The panel page it is about (GAFFER_PUBLIC_URL set), opened by the message's last line. */
  link?: string | null;
}

/** Telegram's limit on one message's text. */
export const TELEGRAM_TEXT_MAX = 4096;
const BODY_EXCERPT_MAX = 3000;

/** Escapes &, <, > (the characters Telegram's HTML parse mode treats specially) and " (safe in attributes). */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

const excerpt = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function telegramText(n: RelayedNotification): string {
  const flags = [
    n.priority !== 'normal' ? n.priority.toUpperCase() : null,
    n.ackRequired ? 'ack required' : null,
    n.escalation > 0 ? `re-escalation ${n.escalation}` : null,
  ].filter((f): f is string => f !== null);
  const header = [
    `<b>${escapeHtml(excerpt(n.subject, 300))}</b>`,
    `<i>${escapeHtml(n.type)}${flags.length ? ` · ${escapeHtml(flags.join(' · '))}` : ''}</i>`,
    `From ${escapeHtml(excerpt(n.sender, 100))} to ${escapeHtml(excerpt(n.recipients.join(', '), 300))}`,
    '',
  ].join('\n');
  const open = n.link ? `\n\n<a href="${escapeHtml(n.link)}">Open in Gaffer</a>` : '';
  return `${header}\n${escapedExcerpt(n.body, TELEGRAM_TEXT_MAX - header.length - open.length - 1)}${open}`;
}

/** The escaped text cut to `max` characters without splitting an entity. */
function escapedExcerpt(text: string, max: number): string {
  const escaped = escapeHtml(excerpt(text, BODY_EXCERPT_MAX));
  if (escaped.length <= max) return escaped;
  return `${escaped.slice(0, max - 1).replace(/&[a-z]*$/, '')}…`;
}
