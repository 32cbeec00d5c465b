/**
 * Forwards one tool call to the Gaffer gateway over HTTP — a verb to
 * `POST /api/v1/flow/{route}/{verb}` with the arguments as body, a do-tool to `POST /api/v1/do`
 * with `{...arguments, tool}` — signed with the agent's identity headers and token, and turns the
 * answer into a gateway envelope plus whether it is an error. Failures of the transport itself
 * (gateway unreachable, timed out, a 5xx, a body that is not a JSON object) become an envelope with
 * error `transport_error` rather than an exception, so the MCP server never goes down with them.
 */
import { randomUUID } from 'node:crypto';
import type { ToolTarget } from './catalogue.js';
import type { GatewayConnection } from './connection.js';

/** The server's wall clock for its slowest verbs is 900 s; the client waits a little longer. */
export const GATEWAY_CALL_TIMEOUT_MS = 910_000;

export interface ForwardOutcome {
  /** The gateway's JSON answer, or a transport_error envelope describing why there is none. */
  readonly envelope: Record<string, unknown>;
  readonly isError: boolean;
}

const REMEDIATE_TRANSPORT =
  'retry the call shortly; if the gateway stays unavailable, stop and report it (your work is not lost)';

const BODY_EXCERPT_CHARS = 300;

export function gatewayPath(target: ToolTarget): string {
  return target.kind === 'verb'
    ? `/api/v1/flow/${encodeURIComponent(target.route)}/${encodeURIComponent(target.verb)}`
    : '/api/v1/do';
}

function requestHeaders(connection: GatewayConnection, correlationId: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'x-correlation-id': correlationId,
    'x-agent-id': connection.agentId,
    'x-agent-role': connection.agentRole,
  };
  if (connection.agentTeam) headers['x-agent-team'] = connection.agentTeam;
  if (connection.token) headers['x-agent-token'] = connection.token;
  return headers;
}

function transportError(message: string, correlationId: string, extra: Record<string, unknown> = {}) {
  return {
    envelope: {
      ok: false,
      error: 'transport_error',
      message,
      remediate: REMEDIATE_TRANSPORT,
      correlation_id: correlationId,
      ...extra,
    },
    isError: true,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An envelope reports failure by `ok: false` or by naming an error flavor. */
const envelopeFailed = (envelope: Record<string, unknown>): boolean =>
  envelope.ok === false || (envelope.error !== undefined && envelope.error !== null);

function describeFailure(error: unknown): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return `no answer within ${GATEWAY_CALL_TIMEOUT_MS / 1000} s`;
  if (err.name === 'AbortError') return 'the call was cancelled';
  return err.cause?.code ?? err.cause?.message ?? err.message ?? String(error);
}

/** Calls the gateway for `target` with `args`; never throws. */
export async function forwardToGateway(
  connection: GatewayConnection,
  target: ToolTarget,
  args: Record<string, unknown>,
  cancelled?: AbortSignal,
): Promise<ForwardOutcome> {
  const correlationId = randomUUID();
  const url = `${connection.baseUrl}${gatewayPath(target)}`;
  const body = target.kind === 'verb' ? args : { ...args, tool: target.tool };
  const timeout = AbortSignal.timeout(GATEWAY_CALL_TIMEOUT_MS);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: requestHeaders(connection, correlationId),
      body: JSON.stringify(body),
      signal: cancelled ? AbortSignal.any([cancelled, timeout]) : timeout,
    });
    text = await response.text();
  } catch (error) {
    return transportError(
      `the Gaffer gateway at ${connection.baseUrl} could not be reached: ${describeFailure(error)}`,
      correlationId,
    );
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  // A gateway envelope naming its flavor (gateway_timeout comes with a 504) goes back as it is.
  if (isObject(parsed) && typeof parsed.error === 'string') return { envelope: parsed, isError: true };
  if (response.status >= 500) {
    const detail = isObject(parsed) ? { inner: parsed } : { body_excerpt: text.slice(0, BODY_EXCERPT_CHARS) };
    return transportError(`the Gaffer gateway failed (HTTP ${response.status})`, correlationId, {
      http_status: response.status,
      ...detail,
    });
  }
  if (!isObject(parsed)) {
    return transportError(
      `the Gaffer gateway answered HTTP ${response.status} with a body that is not a JSON object`,
      correlationId,
      { http_status: response.status, body_excerpt: text.slice(0, BODY_EXCERPT_CHARS) },
    );
  }
  return { envelope: parsed, isError: !response.ok || envelopeFailed(parsed) };
}
