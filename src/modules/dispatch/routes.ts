/**
 * /api/orchestrator routes of the dispatcher (CEO only): running agents, spawn and stop one, and
 * the dispatcher's state. (`GET /api/orchestrator/state`, the scheduler loops, is the system
 * module's.) Thin: schema in, the orchestrator service, the view out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  AgentParams,
  DispatcherView,
  ExitView,
  RunningAgentsView,
  SpawnBody,
  SpawnedView,
  StopBody,
  TAGS,
} from './api-schemas.js';
import type { Orchestrator } from './orchestrator.js';

const unknownAgent = errorResponse(
  'No agent with this UUID or slug, or no task with `task_id` (`not_found`).',
);
const invalid = errorResponse(
  'The body does not match the schema (`validation_failed`; an 8-character `task_id` gets a `remediate` hint), ' +
    'or the agent is the CEO, the system or a human-driven role (`not_spawnable`).',
);

export function registerOrchestratorDispatchRoutes(app: FastifyInstance, orchestrator: Orchestrator): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');

  api.get(
    '/api/orchestrator/agents',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'The agents running now',
        description:
          'Each running agent with its task, run, runtime, provider and process id. Runs belong to the replica ' +
          'that started them: this lists the replica that answered.',
        response: { 200: RunningAgentsView, ...authErrorResponses },
      },
    },
    async () => ({ agents: orchestrator.running() }),
  );

  api.post(
    '/api/orchestrator/agents/:agent_id/spawn',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Spawn an agent by hand',
        description:
          'Starts the agent on the dispatcher’s runtime and provider, in the task’s worktree when `task_id` is given ' +
          '(else a scratch directory), with a fresh expiring token. Bypasses the respawn breaker and ends a hold from ' +
          'an earlier stop. Refused with 409 `dispatch_paused` while the `dispatch` scope is paused, and 409 ' +
          '`already_running` (details: `already_running: true` and the existing `run`) when the agent runs.',
        params: AgentParams,
        body: SpawnBody,
        response: {
          201: SpawnedView,
          404: unknownAgent,
          409: errorResponse('`dispatch_paused`, `already_running` (with the run), or `agent_retired`.'),
          422: invalid,
          503: errorResponse(
            'The agent CLI is not installed (`agent_cli_unavailable`); it is installed where the agent sandbox cannot bind it ' +
              '(`agent_cli_outside_sandbox`, details `add_to_sandbox_read`: the path to add to GAFFER_AGENT_SANDBOX_READ); ' +
              'no sandbox can be made here (`agent_sandbox_unavailable`); or the server is closing.',
          ),
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const spawned = await orchestrator.spawn(request.params.agent_id, request.body ?? {});
      reply.code(201);
      return spawned;
    },
  );

  api.post(
    '/api/orchestrator/agents/:agent_id/stop',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Stop a running agent',
        description:
          'Works on whichever replica receives it: a stop for an agent another replica runs is forwarded to that replica. ' +
          '`graceful: true` sends SIGTERM and SIGKILL after the kill grace; `false` kills at once. Answers how the run ' +
          'ended. The dispatcher then leaves the agent alone for a while (a manual spawn ends that); its claim stays ' +
          '(the stale-claim reaper returns it to pending if nobody picks the work up).',
        params: AgentParams,
        body: StopBody,
        response: {
          200: ExitView,
          404: unknownAgent,
          409: errorResponse('No replica runs the agent (`agent_not_running`).'),
          504: errorResponse(
            'A replica records a live run of the agent but none answered the forwarded stop in time (`stop_unanswered`).',
          ),
          422: errorResponse('The body does not match the schema (`validation_failed`).'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => orchestrator.stop(request.params.agent_id, request.body.graceful),
  );

  api.get(
    '/api/orchestrator/dispatcher',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'The dispatcher’s state',
        description:
          'Its settings, whether a maintenance pause holds it (and whether that pause is a kill), wakes and passes ' +
          'so far, the last pass (spawns, skips with their reasons, stalls, errors), agents held back, tasks the ' +
          'respawn breaker stalled, and the last stale-claim reaper and budget sweep reports.',
        response: { 200: DispatcherView, ...authErrorResponses },
      },
    },
    async () => orchestrator.state(),
  );
}
