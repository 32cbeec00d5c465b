/** `GET /api/system/doctor` (CEO): what this server has and what it is missing (doctor/index.ts). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Platform } from '../../../platform/context.js';
import { requireRole } from '../../../platform/http/auth/index.js';
import { authErrorResponses } from '../../../platform/http/error-schema.js';
import { StringEnum } from '../../../platform/http/schema-types.js';
import type { ProvidersModule } from '../../providers/index.js';
import { serverDoctor } from './index.js';

const Finding = Type.Object({
  area: StringEnum(['runtime', 'git', 'agent_cli', 'stores', 'model_provider']),
  name: Type.String(),
  status: StringEnum(['ok', 'warn', 'fail']),
  detail: Type.String(),
  remedy: Type.Union([Type.String(), Type.Null()], {
    description: 'What to do about it; null when nothing is.',
  }),
  add_to_sandbox_read: Type.Optional(
    Type.String({
      description:
        'Set on the agent CLI the runtime starts when the agent sandbox cannot bind its install by itself (it lies in ' +
        'the home of the server’s user, the data directory or a folder holding one): the path to add to ' +
        'GAFFER_AGENT_SANDBOX_READ.',
    }),
  ),
});

const DoctorView = Type.Object({
  ok: Type.Boolean({
    description: 'False when a finding fails: something the configuration needs is missing.',
  }),
  checked_at: Type.String({ format: 'date-time' }),
  findings: Type.Array(Finding),
});

export function registerDoctorRoutes(
  app: FastifyInstance,
  platform: Pick<Platform, 'config' | 'database' | 'cache' | 'clock'>,
  providers: ProvidersModule['service'],
): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/system/doctor',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: ['system'],
        summary: 'What this server has and what it misses',
        description:
          'The runtime in force, its sandbox and the limits its runs get, git, each agent CLI on the server’s PATH ' +
          '(its version against the tested one; for the one the runtime starts, whether the agent sandbox can ' +
          'bind its install), the stores, and a probe of each connected model provider — each with a remedy when ' +
          'something is wrong. `gaffer doctor` prints the same table.',
        response: { 200: DoctorView, ...authErrorResponses },
      },
    },
    async () => serverDoctor(platform, providers),
  );
}
