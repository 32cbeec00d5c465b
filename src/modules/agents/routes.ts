/**
 * /api/agents: the roster. Any authenticated caller reads it; only the CEO adds, edits and
 * retires agents.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  AgentParams,
  AgentsList,
  AgentView,
  CreateAgentBody,
  ListAgentsQuery,
  TAGS,
  UpdateAgentBody,
} from './api-schemas.js';
import type { Agent, AgentsService } from './service.js';

const notFound = errorResponse('There is no agent with that UUID or slug.');
const invalid = errorResponse('The request is invalid; `details` lists the fields.');

/** The API shape of an agent. */
export function agentView(agent: Agent) {
  return {
    id: agent.id,
    slug: agent.slug,
    name: agent.name,
    role: agent.role,
    team: agent.team,
    status: agent.status as 'active' | 'idle' | 'offline',
    current_task_id: agent.currentTaskId,
    model: agent.model,
    description: agent.description,
    capabilities: agent.capabilities,
    retired: agent.retiredAt !== null,
    retired_at: agent.retiredAt?.toISOString() ?? null,
    created_at: agent.createdAt.toISOString(),
    updated_at: agent.updatedAt.toISOString(),
  };
}

export function registerAgentsRoutes(app: FastifyInstance, service: AgentsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');

  api.get(
    '/api/agents',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'List the roster',
        description: 'Filters combine; retired agents are left out unless `include_retired=true`.',
        querystring: ListAgentsQuery,
        response: { 200: AgentsList, 401: authErrorResponses[401], 422: invalid },
      },
    },
    async (request) => {
      const { role, team, status, include_retired } = request.query;
      const agents = await service.list({ role, team, status, includeRetired: include_retired });
      return { agents: agents.map(agentView) };
    },
  );

  api.get(
    '/api/agents/:id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read one agent by UUID or slug (retired ones too)',
        params: AgentParams,
        response: { 200: AgentView, 401: authErrorResponses[401], 404: notFound },
      },
    },
    async (request) => agentView(await service.get(request.params.id)),
  );

  api.post(
    '/api/agents',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Add an agent (CEO only)',
        description:
          '409 `slug_taken` when the slug is in use (retired agents keep theirs). 422 when the role is ' +
          '`ceo`/`system` or the team does not fit the role.',
        body: CreateAgentBody,
        response: {
          201: AgentView,
          ...authErrorResponses,
          409: errorResponse('The slug is taken.'),
          422: invalid,
        },
      },
    },
    async (request, reply) => {
      const { model, description, capabilities, ...rest } = request.body;
      const agent = await service.create({ ...rest, model, description, capabilities });
      return reply.status(201).send(agentView(agent));
    },
  );

  api.patch(
    '/api/agents/:id',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Edit an agent (CEO only)',
        description:
          'Only the fields present change. 422 for a role change to or from `ceo`/`system` or a team that does ' +
          'not fit the role; 409 `agent_retired` for a retired agent.',
        params: AgentParams,
        body: UpdateAgentBody,
        response: {
          200: AgentView,
          ...authErrorResponses,
          404: notFound,
          409: errorResponse('The agent is retired.'),
          422: invalid,
        },
      },
    },
    async (request) => agentView(await service.update(request.params.id, request.body)),
  );

  api.post(
    '/api/agents/:id/retire',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Retire an agent (CEO only)',
        description:
          'The agent keeps its history, leaves the default lists, goes offline, and its tokens stop working. ' +
          '409 `agent_protected` for the CEO and the system agent, `already_retired` when retired.',
        params: AgentParams,
        response: {
          200: AgentView,
          ...authErrorResponses,
          404: notFound,
          409: errorResponse('The agent cannot be retired, or already is.'),
        },
      },
    },
    async (request) => agentView(await service.retire(request.params.id)),
  );
}
