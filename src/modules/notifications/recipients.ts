/** Resolving recipients (by UUID or slug) to active agents, inside the sending transaction. */
import type { Tx } from '../../platform/bus/index.js';
import { AppError } from '../../platform/http/errors.js';
import { activeAgentsNamed } from '../agents/index.js';

export interface ResolvedRecipient {
  id: string;
  slug: string;
}

/** The active agents `keys` name, in the order given, duplicates dropped; 422 `unknown_recipient` otherwise. */
export async function resolveRecipients(tx: Tx, keys: readonly string[]): Promise<ResolvedRecipient[]> {
  const wanted = [...new Set(keys.map((k) => k.trim().toLowerCase()).filter(Boolean))];
  const rows = await activeAgentsNamed(tx, wanted);
  const found = new Map<string, ResolvedRecipient>();
  for (const row of rows) {
    found.set(row.id, row);
    found.set(row.slug, row);
  }
  const unknown = wanted.filter((key) => !found.has(key));
  if (unknown.length > 0) {
    throw new AppError(422, 'unknown_recipient', `no active agent named ${unknown.join(', ')}`, {
      unknown,
    });
  }
  const unique = new Map<string, ResolvedRecipient>();
  for (const key of wanted) {
    const recipient = found.get(key)!;
    unique.set(recipient.id, recipient);
  }
  return [...unique.values()];
}
