/**
 * The OpenAPI 3 document, generated from every route's TypeBox schemas, and the interactive docs:
 * Swagger UI at /docs, the JSON at /docs/json. The seed makes /docs the authoritative reference.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { version } from '../version.js';
import { errorResponse } from './error-schema.js';
import { operationIdOf } from './operation-ids.js';

export const DOCS_PREFIX = '/docs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registered ("METHOD /path"), except the docs' own; the docs test checks each is documented. */
    routeCatalogue: string[];
  }
}

/** What the request guard may answer on any route, before the route runs (see guard/). */
const GUARD_RESPONSES = {
  403: errorResponse('The request guard refused the request (`request_blocked`) or the address is banned.'),
  429: errorResponse('The request guard’s rate limit (`rate_limited`); see Retry-After.'),
};

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const catalogue: string[] = [];
  const operationIds = new Map<string, string>();
  app.decorate('routeCatalogue', catalogue);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(DOCS_PREFIX) || (route.schema as { hide?: boolean } | undefined)?.hide) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const operation = `${method} ${route.url}`;
      const id = operationIdOf(method, route.url);
      const taken = operationIds.get(id);
      if (taken)
        throw new Error(
          `operationId ${id} of ${operation} is taken by ${taken}: name one in operation-ids.ts`,
        );
      operationIds.set(id, operation);
      catalogue.push(operation);
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Gaffer',
        version,
        description:
          'REST surface of Gaffer, the orchestrator for a company of AI agents. `/api/*` is the domain surface, ' +
          '`/api/v1/*` the agent gateway; probes sit at the root and live streams under `/ws`. Errors on `/api/*` ' +
          'share one shape: `{ error: { code, message, details?, remediate? }, correlation_id }`.',
      },
      components: {
        securitySchemes: {
          agentToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Agent-Token',
            description:
              'HMAC token. Static form: hex HMAC-SHA256(secret, "id:role:team") sent with X-Agent-ID, X-Agent-Role ' +
              'and X-Agent-Team; a bare static token is the CEO\'s. Expiring form: "<base64url payload>.<hex signature>". ' +
              'Print one with `gaffer token`.',
          },
          panelSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'gaffer_session',
            description: 'Panel session cookie, obtained from POST /api/auth/session.',
          },
        },
      },
      security: [{ agentToken: [] }, { panelSession: [] }],
      // Paths are relative to wherever the document was fetched from (GAFFER_PUBLIC_URL behind a proxy).
      servers: [{ url: '/', description: 'This Gaffer server' }],
    },
    // Probes, pages and public routes carry no credentials. Every operation gets its operationId
    // and the guard's answers it does not declare itself.
    transform: ({ schema, url, route }) => {
      const open = !url.startsWith('/api/') || route.config?.public === true;
      const method = [route.method].flat().find((m) => m !== 'HEAD') ?? 'GET';
      const documented: Record<string, unknown> = {
        ...schema,
        operationId: operationIdOf(method, url),
        response: { ...GUARD_RESPONSES, ...(schema?.response as object | undefined) },
      };
      if (open) documented.security = [];
      return { schema: documented, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
}
