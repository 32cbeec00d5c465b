/**
 * Test-only helpers for the /api/a2a suites: callers from the default roster and typed request
 * shortcuts. Nothing imports it at run time (excluded from the build as `test-*.ts`).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** The part of the test app the client needs. */
export interface InjectableApp {
  app: FastifyInstance;
  ceoHeaders: Record<string, string>;
  headersFor(id: string, role: string, team?: string): Record<string, string>;
}

export interface AgentRefBody {
  id: string;
  slug: string;
  role: string;
  team: string | null;
}
export interface ConversationBody {
  id: string;
  participant_a: AgentRefBody;
  participant_b: AgentRefBody;
  topic: string | null;
  task_id: string | null;
  status: 'open' | 'closed';
  resolution: string | null;
  created_by: string;
  closed_at: string | null;
  message_count?: number;
  unread?: number;
}
export interface MessageBody {
  id: string;
  conversation_id: string;
  sender_id: string;
  sender_slug: string;
  body: string;
  kind: string;
  response_to_id: string | null;
  requires_response: boolean;
}
export interface PageBody {
  messages: MessageBody[];
  has_more: boolean;
  next_before: string | null;
}
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

/** Default-company members by slug, with the role and team their tokens carry. */
export const ROSTER = {
  ceo: { role: 'ceo', team: '' },
  'main-pm': { role: 'main_pm', team: 'main_pm' },
  'product-owner': { role: 'product_owner', team: 'board' },
  auditor: { role: 'auditor', team: 'board' },
  'secretary-1': { role: 'secretary', team: 'board' },
  'be-dev-1': { role: 'developer', team: 'backend' },
  'be-dev-2': { role: 'developer', team: 'backend' },
  'be-qa': { role: 'qa', team: 'backend' },
  'be-pm': { role: 'cell_pm', team: 'backend' },
  'fe-dev-1': { role: 'developer', team: 'frontend' },
  'fe-pm': { role: 'cell_pm', team: 'frontend' },
} as const;
export type Slug = keyof typeof ROSTER;

export function a2aClient(t: InjectableApp) {
  const as = (slug: Slug) =>
    slug === 'ceo' ? t.ceoHeaders : t.headersFor(slug, ROSTER[slug].role, ROSTER[slug].team);
  const call = (method: 'GET' | 'POST', url: string, slug: Slug | null, payload?: object) =>
    t.app.inject({ method, url, headers: slug ? as(slug) : {}, ...(payload ? { payload } : {}) });
  return {
    as,
    get: (url: string, slug: Slug | null) => call('GET', url, slug),
    post: (url: string, slug: Slug | null, payload: object = {}) => call('POST', url, slug, payload),
    /** Opens a conversation and returns it (expects 201). */
    async open(from: Slug, to: string, message = 'hello', extra: object = {}): Promise<ConversationBody> {
      const response = await call('POST', '/api/a2a/conversations', from, {
        target_agent: to,
        initial_message: message,
        ...extra,
      });
      if (response.statusCode !== 201)
        throw new Error(`open failed: ${response.statusCode} ${response.body}`);
      return response.json();
    },
    send: (from: Slug, conversationId: string, body: string, extra: object = {}) =>
      call('POST', `/api/a2a/conversations/${conversationId}/messages`, from, { body, ...extra }),
  };
}

export const bodyOf = <T>(response: LightMyRequestResponse): T => response.json() as T;
