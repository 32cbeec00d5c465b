/**
 * /api/orchestrator: the state of the background machinery for the CEO — every scheduler loop with
 * its last success (the same figures as the `gaffer_scheduler_*` metrics).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses } from '../../platform/http/error-schema.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import { LoopView, loopView } from './loop-view.js';

const OrchestratorState = Type.Object({
  loops: Type.Array(LoopView),
});

export function registerOrchestratorRoutes(app: FastifyInstance, scheduler: Scheduler, clock: Clock): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/orchestrator/state',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: ['orchestrator'],
        summary: 'State of the background loops',
        description:
          'Every scheduler loop (sweeps, engine programs) with its interval, pause scopes, last start, last success, ' +
          'last failure and counts, shared by all replicas. `running` is about the replica that answered.',
        response: { 200: OrchestratorState, ...authErrorResponses },
      },
    },
    async () => {
      const now = clock.now();
      return { loops: (await scheduler.status()).map((loop) => loopView(loop, now)) };
    },
  );
}
