/**
 * Agent tokens. Static form: lowercase hex HMAC-SHA256(secret, "id:role:team") over the trimmed,
 * lowercased fields. Expiring form (minted for spawned agents and login links):
 * base64url(JSON {id, role, team, iat, exp}) + "." + hex HMAC-SHA256(secret, that base64 text).
 * Verification is constant-time and fails closed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TokenSubject {
  id: string;
  role: string;
  team?: string | undefined;
}

interface CanonicalSubject {
  id: string;
  role: string;
  team: string;
}

export type TokenVerdict =
  | { ok: true; subject: CanonicalSubject; expiresAt?: Date }
  | { ok: false; reason: 'invalid' | 'expired' | 'mismatch' };

export function canonicalSubject(subject: TokenSubject): CanonicalSubject {
  return {
    id: subject.id.trim().toLowerCase(),
    role: subject.role.trim().toLowerCase(),
    team: (subject.team ?? '').trim().toLowerCase(),
  };
}

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function staticToken(secret: string, subject: TokenSubject): string {
  const s = canonicalSubject(subject);
  return hmacHex(secret, `${s.id}:${s.role}:${s.team}`);
}

export function expiringToken(
  secret: string,
  subject: TokenSubject,
  ttlSeconds: number,
  now = new Date(),
): string {
  const s = canonicalSubject(subject);
  const iat = Math.floor(now.getTime() / 1000);
  const payload = Buffer.from(JSON.stringify({ ...s, iat, exp: iat + ttlSeconds })).toString('base64url');
  return `${payload}.${hmacHex(secret, payload)}`;
}

/**
 * Checks a token. For the static form the claimed subject (from the identity headers) is what the
 * signature must cover; for the expiring form the subject comes from the payload, and any claimed
 * field that is present must agree with it.
 */
export function verifyToken(
  secret: string,
  token: string,
  claimed: Partial<TokenSubject>,
  now = new Date(),
): TokenVerdict {
  if (!secret || !token || token === 'UNSIGNED') return { ok: false, reason: 'invalid' };
  const dot = token.lastIndexOf('.');
  if (dot === -1) {
    if (!claimed.id || !claimed.role) return { ok: false, reason: 'invalid' };
    const subject = canonicalSubject({ id: claimed.id, role: claimed.role, team: claimed.team });
    return sameText(token.toLowerCase(), staticToken(secret, subject))
      ? { ok: true, subject }
      : { ok: false, reason: 'invalid' };
  }
  const payloadText = token.slice(0, dot);
  if (!sameText(token.slice(dot + 1).toLowerCase(), hmacHex(secret, payloadText)))
    return { ok: false, reason: 'invalid' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payloadText, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (parsed === null || typeof parsed !== 'object') return { ok: false, reason: 'invalid' };
  const payload = parsed as { id?: unknown; role?: unknown; team?: unknown; exp?: unknown };
  if (
    typeof payload.id !== 'string' ||
    typeof payload.role !== 'string' ||
    typeof payload.exp !== 'number' ||
    !Number.isFinite(payload.exp)
  ) {
    return { ok: false, reason: 'invalid' };
  }
  const subject = canonicalSubject({
    id: payload.id,
    role: payload.role,
    team: typeof payload.team === 'string' ? payload.team : '',
  });
  if (payload.exp * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  const c = claimed;
  if (
    (c.id && c.id.trim().toLowerCase() !== subject.id) ||
    (c.role && c.role.trim().toLowerCase() !== subject.role) ||
    (c.team !== undefined && c.team.trim().toLowerCase() !== subject.team)
  ) {
    return { ok: false, reason: 'mismatch' };
  }
  return { ok: true, subject, expiresAt: new Date(payload.exp * 1000) };
}
