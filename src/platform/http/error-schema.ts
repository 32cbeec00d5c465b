/** The error model of every /api route as a schema, for routes to declare their error responses (/docs). */
import { Type } from 'typebox';

export const errorResponse = (description = 'The error model of every /api route.') =>
  Type.Object(
    {
      error: Type.Object({
        code: Type.String({ description: 'Stable snake_case error code, e.g. `invalid_token`.' }),
        message: Type.String(),
        details: Type.Optional(Type.Unknown()),
        remediate: Type.Optional(Type.String()),
      }),
      correlation_id: Type.String(),
    },
    { description },
  );

export const ErrorResponse = errorResponse();

/** The 401 and 403 every role-guarded route may answer. */
export const authErrorResponses = {
  401: errorResponse('No credentials, or credentials that do not verify.'),
  403: errorResponse('The caller’s role may not use this route.'),
};
