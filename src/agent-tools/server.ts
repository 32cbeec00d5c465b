/**
 * The MCP server of one role: lists that role's tools (their JSON Schemas given as they are, which
 * is why this uses the SDK's low-level `Server` rather than `McpServer` and zod) and answers each
 * call with the gateway's envelope as JSON text, flagged `isError` when the envelope reports a
 * failure. Transport-agnostic: `command.ts` connects it to stdio, tests may connect it elsewhere.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { GatewayRoute } from '../modules/lifecycle/index.js';
import { version } from '../platform/version.js';
import type { AgentTool } from './catalogue.js';
import type { GatewayConnection } from './connection.js';
import { forwardToGateway } from './forward.js';

const instructions = (route: GatewayRoute): string =>
  `Gaffer gateway tools for the ${route} role. Each call answers with the gateway envelope as JSON: ` +
  'on success follow `next` and `valid_next_verbs`; on an error read `error`, `message` and ' +
  '`remediate` (and `missing` / `field_hints` for input gaps) and fix the call rather than repeat it.';

export function createAgentToolsServer(
  route: GatewayRoute,
  tools: readonly AgentTool[],
  connection: GatewayConnection,
): Server {
  const server = new Server(
    { name: `gaffer-${route}`, version },
    { capabilities: { tools: {} }, instructions: instructions(route) },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool "${request.params.name}"; the ${route} tools are: ${[...byName.keys()].join(', ')}`,
      );
    }
    const outcome = await forwardToGateway(
      connection,
      tool.target,
      request.params.arguments ?? {},
      extra.signal,
    );
    return {
      content: [{ type: 'text', text: JSON.stringify(outcome.envelope) }],
      ...(outcome.isError ? { isError: true } : {}),
    };
  });

  return server;
}
