/** Resolving recipients (by UUID or slug) to active agents, inside the sending transaction. */
import { and, inArray, isNull, or } from 'drizzle-orm';
import type { Tx } from '../../platform/bus/index.js';
import { AppError } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { agents } from '../agents/index.js';

export interface ResolvedRecipient {
  id: string;
  slug: string;
}

/** The active agents `keys` name, in the order given, duplicates dropped; 422 `unknown_recipient` otherwise. */
export async function resolveRecipients(tx: Tx, keys: readonly string[]): Promise<ResolvedRecipient[]> {
  const wanted = [...new Set(keys.map((k) => k.trim().toLowerCase()).filter(Boolean))];
  const ids = wanted.filter(isUuid);
  const slugs = wanted.filter((k) => !isUuid(k));
  const conditions = [
    ...(ids.length ? [inArray(agents.id, ids)] : []),
    ...(slugs.length ? [inArray(agents.slug, slugs)] : []),
  ];
  const rows = conditions.length
    ? await tx
        .select({ id: agents.id, slug: agents.slug })
        .from(agents)
        .where(and(isNull(agents.retiredAt), or(...conditions)))
    : [];
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
