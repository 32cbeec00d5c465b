/** The request schemas and /docs text of the WebSocket endpoints. */
import { Type } from 'typebox';
import { errorResponse } from '../../platform/http/error-schema.js';

const AgentKey = Type.String({ minLength: 1, maxLength: 100, description: 'Agent UUID or slug.' });
const TokenParam = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Agent token (static or expiring). Verified whenever presented; required when GAFFER_WS_REQUIRE_TOKEN is on, unless the upgrade carries a signed-in panel session cookie. ' +
    'May instead be offered as a Sec-WebSocket-Protocol value (offer `gaffer` first so that is what is echoed).',
});

export const AgentPathParams = Type.Object({ agent_id: AgentKey });
export const SystemStreamQuery = Type.Object({ token: Type.Optional(TokenParam) });
export const AgentStreamQuery = Type.Object({
  viewer_id: Type.Optional(AgentKey),
  agent_id: Type.Optional(AgentKey),
  token: Type.Optional(TokenParam),
});
export const NotificationStreamQuery = Type.Object({
  agent_id: Type.Optional(AgentKey),
  token: Type.Optional(TokenParam),
});

const common =
  ' WebSocket (send `Upgrade: websocket`). The first frame is `{"type":"connected", ...}`. ' +
  'Send `{"type":"ping"}` (or the text `ping`) for `{"type":"pong"}` (`pong`); other messages are ignored ' +
  'but count as activity. A socket silent for GAFFER_WS_IDLE_TIMEOUT_SECONDS is closed with 1001; one whose ' +
  'unsent frames exceed GAFFER_WS_SEND_QUEUE_LIMIT is closed with 1013. A refused upgrade is an HTTP error ' +
  'before accept: 422 malformed query, 401 bad or missing token, 403 `unknown_agent` (the 1008 of the seed).';

const upgradeResponses = {
  101: { description: 'Switching Protocols: the WebSocket stream is open.' },
  401: errorResponse('A bad or missing token (`invalid_token`, `missing_token`).'),
  403: errorResponse('An unknown agent (`unknown_agent`), or the request guard refused it.'),
  422: errorResponse('A malformed query.'),
};

export const routeDocs = {
  system: {
    tags: ['streams'],
    response: upgradeResponses,
    summary: 'Operator-wide live stream',
    description:
      'Read-only operator stream: `RATE_LIMIT_HIT`, `RATE_LIMIT_LIFTED`, `USAGE_SNAPSHOT` as `{type, ...data}` and ' +
      '`a2a.message` frames (ids, slugs, `body_excerpt` capped at 240 characters plus `…`; refetch the full ' +
      `text over REST). Open to everyone.${common}`,
  },
  agents: {
    tags: ['streams'],
    response: upgradeResponses,
    summary: "An agent's output and lifecycle stream",
    description:
      '`AGENT_SPAWNED`, `AGENT_STOPPED`, `AGENT_WAITING`, `AGENT_RESUMED`, `AGENT_ERROR` and `AGENT_OUTPUT` of the ' +
      'path agent, as `{type, ...data}`. The path agent and the viewer (query `viewer_id` or `agent_id`) must ' +
      `be known agents.${common}`,
  },
  notifications: {
    tags: ['streams'],
    response: upgradeResponses,
    summary: "An agent's notification stream",
    description:
      "`NOTIFICATION_SENT` (the notification's own type as `notification_type`) and `NOTIFICATION_ACKED` for " +
      `the path agent. The path agent and the query \`agent_id\` must be known agents.${common}`,
  },
};
