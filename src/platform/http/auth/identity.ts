/** Roles, teams and the caller identity that authentication attaches to every request. */
export const ROLES = [
  'developer',
  'qa',
  'documenter',
  'cell_pm',
  'main_pm',
  'product_owner',
  'head_marketing',
  'auditor',
  'pr_reviewer',
  'prompter',
  'secretary',
  'ceo',
  'system',
] as const;
export type Role = (typeof ROLES)[number];

export const TEAMS = ['backend', 'frontend', 'ux_ui', 'board', 'main_pm', 'system'] as const;
export type Team = (typeof TEAMS)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** The fixed identities every installation has. */
export const CEO_ID = '00000000-0000-0000-0000-000000000001';
export const SYSTEM_ID = '00000000-0000-0000-0000-000000000000';

export interface Identity {
  /** Agent UUID or slug, as the token was signed for. */
  readonly id: string;
  readonly role: Role;
  /** Empty string when the caller has no team. */
  readonly team: string;
  /** How the identity was established. `header` only happens with secure mode off. */
  readonly via: 'token' | 'session' | 'header';
  /** When the proof stops working: an expiring token's `exp` or the session's expiry. */
  readonly expiresAt?: Date;
}

export const CEO_IDENTITY = { id: CEO_ID, role: 'ceo', team: '' } as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling; null for anonymous requests to public routes. */
    identity: Identity | null;
  }
  interface FastifyContextConfig {
    /** Route needs no authentication even under /api (e.g. the session exchange). */
    public?: boolean;
  }
}
