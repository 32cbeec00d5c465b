/**
 * The OpenAPI 3 document, generated from every route's TypeBox schemas, and the interactive docs:
 * Swagger UI at /docs, the JSON at /docs/json. The seed makes /docs the authoritative reference.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { version } from '../version.js';

export const DOCS_PREFIX = '/docs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registered ("METHOD /path"), except the docs' own; the docs test checks each is documented. */
    routeCatalogue: string[];
  }
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const catalogue: string[] = [];
  app.decorate('routeCatalogue', catalogue);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(DOCS_PREFIX)) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') catalogue.push(`${method} ${route.url}`);
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
    },
    // Probes, pages and public routes carry no credentials.
    transform: ({ schema, url, route }) => {
      const open = !url.startsWith('/api/') || route.config?.public === true;
      return { schema: open ? { ...schema, security: [] } : schema, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
}
