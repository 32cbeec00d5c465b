/**
 * The tools one role's agents see: exactly the intent verbs of its gateway route (from the
 * lifecycle data) plus the do-tools its roles may use, each with the JSON Schema the gateway
 * validates its body against (from the gateway's verb inputs, whose descriptions double as the
 * tool descriptions), and where the call goes.
 */

import { doToolInputSchema, doToolsFor, verbInputSchema } from '../modules/gateway/index.js';
import {
  GATEWAY_ROUTE_ROLES,
  GATEWAY_ROUTES,
  type GatewayRoute,
  gatewayRouteOf,
  VERBS,
} from '../modules/lifecycle/index.js';
import { isRole } from '../platform/http/auth/identity.js';

/** An MCP tool input schema: a JSON Schema whose top level is an object. */
export interface ObjectInputSchema {
  readonly type: 'object';
  readonly [keyword: string]: unknown;
}

export type ToolTarget =
  | { readonly kind: 'verb'; readonly route: GatewayRoute; readonly verb: string }
  | { readonly kind: 'do'; readonly tool: string };

export interface AgentTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ObjectInputSchema;
  readonly target: ToolTarget;
}

/**
 * The gateway route for `role`: a route name itself (developer, board, …) or a roster role that
 * maps to one (product_owner → board). Undefined for anything else.
 */
export function resolveRoute(role: string): GatewayRoute | undefined {
  const name = role.trim().toLowerCase();
  const route = GATEWAY_ROUTES.find((candidate) => candidate === name);
  if (route) return route;
  return isRole(name) ? gatewayRouteOf(name) : undefined;
}

/** Every name `--role` accepts: the route names, then the roster roles served under another name. */
export function acceptedRoleNames(): string[] {
  const aliases = GATEWAY_ROUTES.flatMap((route) =>
    GATEWAY_ROUTE_ROLES[route].filter((role) => role !== route),
  );
  return [...GATEWAY_ROUTES, ...aliases];
}

function objectSchema(schema: unknown, toolName: string): ObjectInputSchema {
  if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object') {
    throw new Error(`the input schema of tool "${toolName}" is not an object schema`);
  }
  return schema as ObjectInputSchema;
}

const descriptionOf = (schema: ObjectInputSchema, fallback: string): string =>
  typeof schema.description === 'string' && schema.description ? schema.description : fallback;

/** The do-tools any role served by `route` may use (commit is for developers and documenters). */
const doToolsOf = (route: GatewayRoute) => [
  ...new Set(GATEWAY_ROUTE_ROLES[route].flatMap((role) => doToolsFor(role))),
];

/** The tools of `route`: its verbs in lifecycle order, then its do-tools. */
export function toolsFor(route: GatewayRoute): AgentTool[] {
  const verbs: AgentTool[] = VERBS[route].map((verb) => {
    const inputSchema = objectSchema(verbInputSchema(route, verb.name), verb.name);
    return {
      name: verb.name,
      description: descriptionOf(inputSchema, verb.summary),
      inputSchema,
      target: { kind: 'verb', route, verb: verb.name },
    };
  });
  const doTools: AgentTool[] = doToolsOf(route).map((tool) => {
    const inputSchema = objectSchema(doToolInputSchema(tool), tool);
    return {
      name: tool,
      description: descriptionOf(inputSchema, tool),
      inputSchema,
      target: { kind: 'do', tool },
    };
  });
  const tools = [...verbs, ...doTools];
  const names = new Set(tools.map((tool) => tool.name));
  if (names.size !== tools.length) throw new Error(`route "${route}" has a verb named like a do-tool`);
  return tools;
}
