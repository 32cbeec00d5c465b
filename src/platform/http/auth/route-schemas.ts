/** TypeBox schemas of the session routes; they validate, serialise and document (/docs) the same shapes. */
import { Type } from 'typebox';
import { StringEnum } from '../schema-types.js';
import { ROLES } from './identity.js';

export const IdentityBody = Type.Object({
  id: Type.String({ description: 'Agent UUID (the CEO is 00000000-0000-0000-0000-000000000001) or slug.' }),
  role: StringEnum(ROLES, { description: 'Role the credential proves.' }),
  team: Type.String({ description: 'Team, or an empty string when the caller has none.' }),
});

const ExpiresAt = Type.String({
  format: 'date-time',
  description: 'When the session (or token) stops working.',
});

export const SessionCreated = Type.Object(
  { identity: IdentityBody, expires_at: ExpiresAt },
  { description: 'Signed in; the `gaffer_session` cookie (HttpOnly, SameSite=Strict) is set.' },
);

export const SessionInfo = Type.Object(
  {
    identity: IdentityBody,
    via: StringEnum(['token', 'session', 'header'], {
      description: 'How the caller was identified; `header` only with secure mode off.',
    }),
    expires_at: Type.Optional(ExpiresAt),
  },
  { description: 'The current caller.' },
);

export const TokenHeader = Type.Object({
  'x-agent-token': Type.Optional(
    Type.String({ description: 'The CEO token: static, or the expiring one from the login link.' }),
  ),
});

export const NoContent = Type.Null({ description: 'Signed out (also when there was no session).' });
