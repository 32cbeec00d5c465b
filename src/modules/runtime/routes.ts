/**
 * /api/stream: agent output stream access — an agent's runs and each run's transcript, paged. Live
 * output travels on /ws/agents/{agent_id}; these routes give what was kept. Thin: schema in, the
 * transcript service, the view out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { unauthorized } from '../../platform/http/errors.js';
import {
  AgentParams,
  RunListView,
  RunParams,
  RunsQuery,
  TAGS,
  TranscriptPageView,
  TranscriptQuery,
} from './api-schemas.js';
import type { TranscriptService } from './transcript-service.js';

const caller = (request: FastifyRequest) => {
  if (!request.identity) throw unauthorized();
  return request.identity;
};

const access =
  'Readable by the CEO and by the agent itself; anyone else gets 403 (raw output may hold what a tool printed).';
const forbidden = errorResponse(
  'The caller is neither the CEO nor this agent (`forbidden`, `unknown_agent`).',
);
const invalid = errorResponse('The request does not match the schema (`validation_failed`).');

export function registerTranscriptRoutes(app: FastifyInstance, transcripts: TranscriptService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/api/stream/:agent_id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: "An agent's runs, newest first",
        description: `Each spawn of the agent with its runtime, task, status and exit. ${access}`,
        params: AgentParams,
        querystring: RunsQuery,
        response: {
          200: RunListView,
          404: errorResponse('No agent with this UUID or slug.'),
          422: invalid,
          ...authErrorResponses,
          403: forbidden,
        },
      },
    },
    async (request) => transcripts.runsOf(caller(request), request.params.agent_id, request.query.limit),
  );

  api.get(
    '/api/stream/:agent_id/runs/:run_id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: "One run's transcript, in order, paged",
        description:
          'The output the run printed (stdout, stderr) and the runtime’s notes (system), by sequence ' +
          `number. Page with \`after_seq\` = the previous \`next_after_seq\`. ${access}`,
        params: RunParams,
        querystring: TranscriptQuery,
        response: {
          200: TranscriptPageView,
          404: errorResponse('No such agent, or the agent has no such run.'),
          422: invalid,
          ...authErrorResponses,
          403: forbidden,
        },
      },
    },
    async (request) =>
      transcripts.page(
        caller(request),
        request.params.agent_id,
        request.params.run_id,
        request.query.after_seq,
        request.query.limit,
      ),
  );
}
