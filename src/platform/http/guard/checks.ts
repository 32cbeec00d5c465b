/**
 * The guard's request checks, run in order until one refuses. Each answers true once it has sent its
 * refusal, false to let the request on, or a promise of either when it had to ask a store. A request
 * that every check passes at once goes on without a promise: the guard's cost on a cheap route is
 * mostly its microtasks, so the common path stays synchronous and only a store call goes async.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { GuardClient } from './client.js';

export type GuardCheck = (
  request: FastifyRequest,
  reply: FastifyReply,
  client: GuardClient,
) => boolean | Promise<boolean>;

/** Runs `checks` from `from` on; calls `done` when all passed (not when one refused: it replied). */
export function runChecks(
  checks: readonly GuardCheck[],
  request: FastifyRequest,
  reply: FastifyReply,
  client: GuardClient,
  done: HookHandlerDoneFunction,
  from = 0,
): void {
  for (let i = from; i < checks.length; i++) {
    const refused = checks[i]!(request, reply, client);
    if (refused === true) return;
    if (refused !== false) {
      refused.then((sent) => {
        if (!sent) runChecks(checks, request, reply, client, done, i + 1);
      }, done);
      return;
    }
  }
  done();
}
