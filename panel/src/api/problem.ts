/**
 * The server's standard error body (`{error:{code,message,details?,remediate?},correlation_id}`)
 * turned into what the panel shows next to the action that failed.
 */
export interface Problem {
  code: string;
  message: string;
  remediate?: string;
  /** Field-level details of a 422, as `{field, message}`. */
  fields: { field: string; message: string }[];
}

export function problemOf(error: unknown): Problem {
  if (typeof error === 'object' && error !== null && 'error' in error) {
    const body = (
      error as { error: { code?: unknown; message?: unknown; remediate?: unknown; details?: unknown } }
    ).error;
    const fields = Array.isArray(body.details)
      ? body.details.filter(
          (d): d is { field: string; message: string } =>
            typeof d === 'object' && d !== null && 'field' in d && 'message' in d,
        )
      : [];
    return {
      code: typeof body.code === 'string' ? body.code : 'error',
      message: typeof body.message === 'string' ? body.message : 'the request failed',
      ...(typeof body.remediate === 'string' ? { remediate: body.remediate } : {}),
      fields,
    };
  }
  if (error instanceof Error) return { code: 'network_error', message: error.message, fields: [] };
  return { code: 'error', message: 'the request failed', fields: [] };
}
