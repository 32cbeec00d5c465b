/** Shared by the task routes: the error responses they declare, and the acting agent of a request. */
import type { FastifyRequest } from 'fastify';
import { authErrorResponses, ErrorResponse } from '../../platform/http/error-schema.js';
import type { TasksService } from './service.js';
import type { Actor } from './types.js';

export const taskErrors = {
  ...authErrorResponses,
  404: ErrorResponse,
  409: ErrorResponse,
  422: ErrorResponse,
};

/** The acting agent; every task route runs behind an identity guard, so the identity is there. */
export const actorOf = (service: TasksService, request: FastifyRequest): Promise<Actor> =>
  service.actorFor(request.identity!);
