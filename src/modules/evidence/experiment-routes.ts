/** /api/workforce/experiments: the CEO splits a role's work between two routes, reads the arms, adopts one. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { TAGS } from './api-schemas.js';
import {
  ArmParam,
  ExperimentInputSchema,
  ExperimentList,
  ExperimentView,
  TaskArmsView,
} from './experiment-schemas.js';
import type { ExperimentsService } from './experiments.js';
import { WORKFORCE_READER_ROLES } from './routes.js';

const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
const ceoOnly = {
  401: authErrorResponses[401],
  403: errorResponse('Only the CEO starts, stops and adopts experiments.'),
};
const notFound = { 404: errorResponse('No such experiment.') };
const readersOnly = {
  401: authErrorResponses[401],
  403: errorResponse('The experiments are for the CEO and the PMs.'),
};

export function registerExperimentRoutes(app: FastifyInstance, experiments: ExperimentsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const readers = requireRole(...WORKFORCE_READER_ROLES);
  const ceo = requireRole('ceo');

  api.get(
    '/api/workforce/experiments',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        operationId: 'listExperiments',
        summary: 'The experiments, running first: each arm’s figures side by side and the verdict',
        response: { 200: ExperimentList, ...readersOnly },
      },
    },
    async () => ({ experiments: await experiments.list() }),
  );

  api.post(
    '/api/workforce/experiments',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        operationId: 'startExperiment',
        summary: 'Split one role’s work between two routes by a share',
        description:
          'Each task an agent of the role starts on gets arm B for `share_b` % of tasks (a hash of the experiment ' +
          'and the task: the same on every replica), else arm A, and keeps it. The experiment ends once ' +
          '`max_tasks` tasks have all ended, at `cost_cap_usd`, when an arm fails on start more often than ' +
          '`start_failure_bound` (that arm’s tasks go back to the usual route at once), or when stopped. ' +
          'The CEO’s inbox gets one card when it ends; nothing switches by itself.',
        body: ExperimentInputSchema,
        response: {
          201: ExperimentView,
          ...ceoOnly,
          409: errorResponse('An experiment on the role is running (`experiment_running`).'),
          422: errorResponse(
            'A share outside 1–99, an unknown role, provider or CLI, an empty arm or two arms the same (`validation_failed`).',
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await experiments.create(request.body)),
  );

  api.get(
    '/api/workforce/experiments/:id',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        operationId: 'getExperiment',
        summary: 'One experiment: its arms’ figures and the verdict',
        params: IdParams,
        response: { 200: ExperimentView, ...readersOnly, ...notFound },
      },
    },
    async (request) => experiments.get(request.params.id),
  );

  api.post(
    '/api/workforce/experiments/:id/stop',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        operationId: 'stopExperiment',
        summary: 'End a running experiment now: its tasks go back to the usual route',
        params: IdParams,
        response: {
          200: ExperimentView,
          ...ceoOnly,
          ...notFound,
          409: errorResponse('It has already ended (`experiment_ended`).'),
        },
      },
    },
    async (request) => experiments.stop(request.params.id),
  );

  api.post(
    '/api/workforce/experiments/:id/adopt',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        operationId: 'adoptExperimentArm',
        summary: 'Route the role the way one arm ran: its provider and model become the role’s route',
        description:
          'Only an ended experiment. An arm that named only a model keeps the role’s current provider. The ' +
          'experiment’s record stays readable.',
        params: IdParams,
        body: Type.Object({ arm: ArmParam }, { additionalProperties: false }),
        response: {
          200: ExperimentView,
          ...ceoOnly,
          ...notFound,
          409: errorResponse(
            'The experiment is still running (`experiment_running`), the arm runs another CLI than the server’s ' +
              '(`cli_not_routable`), or no provider routes the role (`no_model_provider`).',
          ),
          422: errorResponse('The arm is not `a` or `b` (`validation_failed`).'),
        },
      },
    },
    async (request) => experiments.adopt(request.params.id, request.body.arm),
  );

  api.get(
    '/api/workforce/task-arms/:task_id',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        operationId: 'listTaskArms',
        summary: 'The experiments a task is part of, and the arm it runs on in each',
        params: Type.Object({ task_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
        response: { 200: TaskArmsView, ...readersOnly },
      },
    },
    async (request) => ({ arms: await experiments.armsOfTask(request.params.task_id) }),
  );
}
