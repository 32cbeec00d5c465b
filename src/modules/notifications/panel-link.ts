/**
 * The panel page a notification is about, for the chat relay's "Open in Gaffer" (only where
 * GAFFER_PUBLIC_URL says how a phone reaches the panel): a task awaiting the CEO opens on its
 * change, ready to approve; the release proposal on the inbox, where its card is; any other task
 * on its page; a notification about no task on the notifications page.
 */
import { RELEASE_PROPOSAL_SOURCE } from '../tasks/index.js';

export interface LinkedTask {
  id: string;
  status: string;
  source: string;
}

export function panelLinkOf(publicUrl: string | undefined, task: LinkedTask | null): string | null {
  if (!publicUrl) return null;
  const base = publicUrl.replace(/\/+$/, '');
  if (!task) return `${base}/notifications`;
  if (task.source === RELEASE_PROPOSAL_SOURCE) return `${base}/`;
  if (task.status === 'awaiting_ceo_approval') return `${base}/tasks/${task.id}/changes`;
  return `${base}/tasks/${task.id}`;
}
