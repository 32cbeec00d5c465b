/**
 * The gateway's routes under `/api/v1` (AI agents only): one `POST /api/v1/flow/{route}/{verb}`
 * per verb of each route (so /docs shows each verb's own input schema), a catch-all
 * `POST /api/v1/flow/{route}/{verb}` for every other combination (answered `not_authorized` — a
 * verb the role does not have), and `POST /api/v1/do` for the content tools.
 *
 * HTTP status choices (the spec's envelope table governs what a verb answers):
 * - every verb outcome — success or any of the six rejection flavors — is HTTP 200 with the
 *   envelope, including an input that does not fit the verb's schema (`incomplete_input`; the
 *   route validates with `attachValidation`, and the gateway answers the problems itself);
 * - authentication stays the platform's: no or bad token → 401 with the error model;
 * - a body that is not JSON at all (or too large, or not application/json) never reaches a verb:
 *   400 `invalid_json` / 413 / 415 with the error model, as on every /api route;
 * - a real failure (a store down, a bug) is an HTTP 5xx with the error model, never an envelope.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { errorResponse } from '../../platform/http/error-schema.js';
import { GATEWAY_ROUTE_ROLES, GATEWAY_ROUTES, VERBS } from '../lifecycle/index.js';
import { AnyBody, DoToolBody, FlowParams, GatewayEnvelope, TAGS } from './api-schemas.js';
import { describe } from './input-fields.js';
import { type RunnerServices, runDoTool, runVerb } from './runner.js';
import { DO_TOOL_ROLES, DO_TOOLS, verbInputSchema } from './verb-inputs.js';

const responses = {
  200: GatewayEnvelope,
  400: errorResponse('The body is not JSON.'),
  401: errorResponse('No credentials, or credentials that do not verify.'),
  413: errorResponse('The body is too large.'),
  415: errorResponse('The body is not application/json.'),
};

/** A POST without a body is an empty input (taskless verbs take nothing). */
const bodyOptional = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

const gatewayRequest = (request: FastifyRequest) => ({
  identity: request.identity!,
  body: request.body,
  correlationId: request.id,
  log: request.log,
});

export function registerGatewayRoutes(app: FastifyInstance, services: RunnerServices): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const route of GATEWAY_ROUTES) {
    const roles = GATEWAY_ROUTE_ROLES[route].join(', ');
    for (const verb of VERBS[route]) {
      const body = verbInputSchema(route, verb.name)!;
      api.post(
        `/api/v1/flow/${route}/${verb.name}`,
        {
          preValidation: [requireIdentity, bodyOptional],
          attachValidation: true,
          schema: {
            tags: TAGS,
            summary: `${route}: ${verb.name} — ${verb.summary}`,
            description: `${describe(body) ?? ''}\n\nFor: ${roles}. Answers the gateway envelope (HTTP 200) on success and on every rejection.`,
            body,
            response: responses,
          },
        },
        async (request) => runVerb(services, gatewayRequest(request), route, verb.name),
      );
    }
  }

  api.post(
    '/api/v1/flow/:route/:verb',
    {
      preValidation: [requireIdentity, bodyOptional],
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: 'Any other route and verb: not_authorized',
        description:
          'Verbs a route does not have, and routes of other roles, answer the `not_authorized` envelope (HTTP 200).',
        params: FlowParams,
        body: AnyBody,
        response: responses,
      },
    },
    async (request) => runVerb(services, gatewayRequest(request), request.params.route, request.params.verb),
  );

  api.post(
    '/api/v1/do',
    {
      preValidation: [requireIdentity, bodyOptional],
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: 'Content tools: commit, note, dm, read_a2a, evidence',
        description: `Body \`{tool, ...}\`. Tools: ${DO_TOOLS.join(', ')} — every agent role, except ${Object.entries(
          DO_TOOL_ROLES,
        )
          .map(([tool, r]) => `${tool} (${r.join(', ')} only)`)
          .join('; ')}. Answers the gateway envelope (HTTP 200).`,
        body: DoToolBody,
        response: responses,
      },
    },
    async (request) => runDoTool(services, gatewayRequest(request)),
  );
}
