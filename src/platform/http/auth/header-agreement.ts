/**
 * Identity headers that agree with a token. A token proves one identity; the X-Agent-* headers sent
 * with it may name that identity the way the roster knows it — by the agent's UUID or its slug, with
 * the roster's team (the CEO token is signed over the CEO's UUID with no team; `X-Agent-ID: ceo` and
 * `X-Agent-Team: board` name the same CEO). Headers naming anyone else — another agent, another role,
 * another team — still fail. The roster lookup is injected by the composition root: platform/ does
 * not import modules/.
 */
import { CEO_ID } from './identity.js';
import { canonicalSubject, type TokenSubject, type TokenVerdict, verifyToken } from './tokens.js';

/** What the identity headers claim; a token, when present, has the final word. */
export interface ClaimedIdentity {
  id: string | undefined;
  role: string | undefined;
  team: string | undefined;
}

/** What the roster knows of an identity: its two names, its role and team. */
export interface RosterIdentity {
  readonly id: string;
  readonly slug: string;
  readonly role: string;
  readonly team: string | null;
}

/** The roster entry a UUID or slug names (retired ones included), or null. */
export type RosterLookup = (idOrSlug: string) => Promise<RosterIdentity | null>;

const canon = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();
const unique = (values: string[]) => [...new Set(values.map(canon))];

/**
 * The static-token subjects the headers may stand for, given the roster entry they name: the id as
 * sent or the agent's other name; the role as sent (the roster's when absent); the team as sent, or
 * no team when the sent team is the roster's (or none was sent, then also the roster's).
 */
export function staticSubjects(claimed: ClaimedIdentity, agent: RosterIdentity): TokenSubject[] {
  const named = claimed.id ?? CEO_ID;
  const ids = unique([named, agent.id, agent.slug]);
  const role = claimed.role ?? (claimed.id ? agent.role : 'ceo');
  const rosterTeam = canon(agent.team);
  const teams =
    claimed.team === undefined
      ? unique(['', rosterTeam])
      : canon(claimed.team) === rosterTeam
        ? unique([claimed.team, ''])
        : [canon(claimed.team)];
  return ids.flatMap((id) => teams.map((team) => ({ id, role, team })));
}

/**
 * True when every header sent agrees with the identity an expiring token proves: the id is the
 * subject's or the other name of the same roster agent, the role is the subject's, the team is the
 * subject's or the roster's team of that agent. `agent` is the roster entry of the subject.
 */
export function headersAgree(
  claimed: ClaimedIdentity,
  subject: Required<TokenSubject>,
  agent: RosterIdentity | null,
): boolean {
  const names = unique([subject.id, ...(agent ? [agent.id, agent.slug] : [])]);
  const teams = unique([subject.team, ...(agent ? [canon(agent.team)] : [])]);
  return (
    (claimed.id === undefined || names.includes(canon(claimed.id))) &&
    (claimed.role === undefined || canon(claimed.role) === subject.role) &&
    (claimed.team === undefined || teams.includes(canon(claimed.team)))
  );
}

/**
 * The second look at a token whose plain check against the headers failed: the headers may name the
 * token's identity by its other roster name or team. Returns the verdict to use (the proven
 * subject is always the one the token was signed for).
 */
export async function verifyAgainstRoster(
  secret: string,
  token: string,
  claimed: ClaimedIdentity,
  now: Date,
  roster: RosterLookup,
): Promise<TokenVerdict> {
  // A name with a NUL names nobody (and must never reach the roster's SQL).
  if ([claimed.id, claimed.role, claimed.team].some((value) => value?.includes('\u0000'))) {
    return { ok: false, reason: 'invalid' };
  }
  if (token.includes('.')) {
    const verdict = verifyToken(secret, token, {}, now);
    if (!verdict.ok) return verdict;
    const agent = await roster(verdict.subject.id);
    return headersAgree(claimed, verdict.subject, agent) ? verdict : { ok: false, reason: 'mismatch' };
  }
  const agent = await roster(claimed.id ?? CEO_ID);
  if (!agent) return { ok: false, reason: 'invalid' };
  for (const subject of staticSubjects(claimed, agent)) {
    const verdict = verifyToken(secret, token, subject, now);
    if (verdict.ok) return { ok: true, subject: canonicalSubject(subject) };
  }
  return { ok: false, reason: 'invalid' };
}
