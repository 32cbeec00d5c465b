/**
 * `gaffer agent-tools --role <role>`: the MCP face of the Gaffer gateway. Agent CLIs (Claude Code,
 * Codex, Gemini CLI, …) run it as a stdio MCP server; it offers exactly the intent verbs of one
 * role plus the shared do-tools, and forwards every call to the gateway over HTTP as the agent
 * whose identity and token are in its environment (see connection.ts). stdout carries the MCP
 * protocol only; everything for people goes to stderr.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveRoute, toolsFor } from './catalogue.js';
import { connectionFromEnv } from './connection.js';
import { createAgentToolsServer } from './server.js';
import { AGENT_TOOLS_USAGE } from './usage.js';

const fail = (message: string): number => {
  console.error(`gaffer agent-tools: ${message}\n\n${AGENT_TOOLS_USAGE}`);
  return 2;
};

/** Serves until stdin closes (returns -1: keep running), or returns 2 after saying what is wrong. */
export async function runAgentTools(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let role: string | undefined;
  try {
    ({ role } = parseArgs({ args, options: { role: { type: 'string' } } }).values);
  } catch (error) {
    return fail((error as Error).message);
  }
  if (role === undefined) return fail('name the role with --role');
  const route = resolveRoute(role);
  if (!route) return fail(`unknown role "${role}"`);
  const found = connectionFromEnv(env, route, role);
  if (!found.ok) return fail(found.message);

  const tools = toolsFor(route);
  const server = createAgentToolsServer(route, tools, found.connection);
  const transport = new StdioServerTransport();
  process.stdin.once('end', () => {
    void server.close().finally(() => process.exit(0));
  });
  await server.connect(transport);
  const { agentId, agentRole, baseUrl, token } = found.connection;
  console.error(
    `gaffer agent-tools: ${tools.length} ${route} tools for ${agentId} (${agentRole}) → ${baseUrl}` +
      (token ? '' : ' (no GAFFER_AGENT_TOKEN: calls go unsigned, a gateway in secure mode refuses them)'),
  );
  return -1;
}
