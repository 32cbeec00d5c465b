/**
 * Errors of the workspaces service: AppErrors (so a REST route maps them unchanged) that also
 * carry the gateway flavor a verb should answer with (reference A §8.3: git failures and merge
 * conflicts are invalid_state, CEO-only targets and commits by the wrong role not_authorized).
 */
import { GitError } from '../../platform/git/index.js';
import { AppError } from '../../platform/http/errors.js';

export type WorkspaceErrorFlavor = 'invalid_state' | 'not_authorized' | 'incomplete_input' | 'not_found';

const STATUS: Record<WorkspaceErrorFlavor, number> = {
  invalid_state: 409,
  not_authorized: 403,
  incomplete_input: 422,
  not_found: 404,
};

export class WorkspaceError extends AppError {
  constructor(
    readonly flavor: WorkspaceErrorFlavor,
    code: string,
    message: string,
    details?: Record<string, unknown>,
    remediate?: string,
  ) {
    super(STATUS[flavor], code, message, details, remediate);
    this.name = 'WorkspaceError';
  }
}

/** A git failure as a WorkspaceError (invalid_state, as the reference has it); aborts pass through. */
export function gitFailed(error: unknown, what: string): unknown {
  if (error instanceof GitError && error.failure !== 'aborted') {
    return new WorkspaceError('invalid_state', 'git_failed', `${what}: ${error.message}`, {
      failure: error.failure,
      exit_code: error.exitCode,
    });
  }
  return error;
}
