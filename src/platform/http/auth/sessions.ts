/** Panel sessions stored in `auth_sessions`; the cookie carries a random id, the table its SHA-256. */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Identity, Role } from './identity.js';
import { authSessions } from './schema.js';

export const SESSION_COOKIE = 'gaffer_session';

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

export async function createSession(
  db: Db,
  identity: Omit<Identity, 'via'>,
  expiresAt: Date,
): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await db.insert(authSessions).values({
    idHash: hashId(id),
    agentId: identity.id,
    role: identity.role,
    team: identity.team,
    expiresAt,
  });
  return id;
}

export async function findSession(
  db: Db,
  id: string,
  now: Date,
): Promise<(Identity & { expiresAt: Date }) | null> {
  const [row] = await db
    .select()
    .from(authSessions)
    .where(and(eq(authSessions.idHash, hashId(id)), gt(authSessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  return {
    id: row.agentId,
    role: row.role as Role,
    team: row.team,
    via: 'session',
    expiresAt: row.expiresAt,
  };
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(authSessions).where(eq(authSessions.idHash, hashId(id)));
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(authSessions).where(lte(authSessions.expiresAt, now));
}
