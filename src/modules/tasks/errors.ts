/** The task domain's refusals as AppErrors with stable codes (403 not_authorized, 409 conflicts, 404, 422). */
import { AppError, conflict, notFound, unprocessable } from '../../platform/http/errors.js';
import type { Refused } from '../lifecycle/index.js';

/** A lifecycle refusal: `not_authorized` → 403, `invalid_state` → 409. */
export const refusalError = (refused: Refused, details?: unknown): AppError =>
  new AppError(refused.flavor === 'not_authorized' ? 403 : 409, refused.flavor, refused.message, details);

export const notAuthorized = (message: string, details?: unknown): AppError =>
  new AppError(403, 'not_authorized', message, details);

export const invalidState = (message: string, details?: unknown): AppError =>
  conflict('invalid_state', message, details);

export const taskNotFound = (id: string): AppError => notFound(`there is no task ${id}`);

export const taskHeld = (id: string): AppError =>
  conflict('task_held', `task ${id} is held: nobody may claim or start it`, { task_id: id });

export const fieldProblem = (field: string, message: string): AppError =>
  unprocessable('the request is invalid', [{ field, message }]);
