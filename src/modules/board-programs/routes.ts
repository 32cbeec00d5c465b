/**
 * /api/board-programs (CEO only): the registered programs with their state and last cycle, a
 * program's cycle history, and run-now. Thin: schema in, the runner, the view out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  CYCLES_LIMIT,
  CycleList,
  CyclesQuery,
  CycleView,
  ProgramKeyParams,
  ProgramList,
  TAGS,
} from './api-schemas.js';
import type { BoardProgramRunner } from './runner.js';
import { cycleView, programView } from './views.js';

const unknownKey = errorResponse('No board program has this key (`not_found`).');
const invalid = errorResponse('The request does not match the schema (`validation_failed`).');

export function registerBoardProgramRoutes(app: FastifyInstance, runner: BoardProgramRunner): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');

  api.get(
    '/api/board-programs',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'The board programs: definition, enabled state, last cycle and any pause holding them',
        response: { 200: ProgramList, ...authErrorResponses },
      },
    },
    async () => ({ programs: (await runner.statuses()).map(programView) }),
  );

  api.get(
    '/api/board-programs/:key/cycles',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'A board program’s cycle history, newest first',
        params: ProgramKeyParams,
        querystring: CyclesQuery,
        response: { 200: CycleList, 404: unknownKey, 422: invalid, ...authErrorResponses },
      },
    },
    async (request) => ({
      cycles: (await runner.cycles(request.params.key, request.query.limit ?? CYCLES_LIMIT.default)).map(
        cycleView,
      ),
    }),
  );

  api.post(
    '/api/board-programs/:key/run-now',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Run one cycle of a board program now and answer with it',
        description:
          'Waits for the cycle to close. 409 `maintenance_paused` (naming the pause) while `board_programs` or ' +
          '`engines` is paused, `program_disabled` when the program is off, `cycle_in_flight` when a cycle of it ' +
          'runs already (on any replica).',
        params: ProgramKeyParams,
        response: {
          200: CycleView,
          404: unknownKey,
          409: errorResponse('`maintenance_paused`, `program_disabled` or `cycle_in_flight`.'),
          422: invalid,
          503: errorResponse('The cycle could not start because a store is down (`unavailable`).'),
          ...authErrorResponses,
        },
      },
    },
    async (request) => cycleView(await runner.runNow(request.params.key)),
  );
}
