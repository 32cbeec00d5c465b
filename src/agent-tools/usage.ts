/** The usage text of `gaffer agent-tools` (apart from the command, so `gaffer --help` stays light). */
import { acceptedRoleNames } from './catalogue.js';

export const AGENT_TOOLS_USAGE = `usage: gaffer agent-tools --role <role>

  Runs the MCP tool server of one role's gateway verbs on stdio. <role> is one of:
  ${acceptedRoleNames().join(', ')}.
  Environment: GAFFER_GATEWAY_URL, GAFFER_AGENT_ID, GAFFER_AGENT_ROLE (needed for --role board),
  GAFFER_AGENT_TEAM, GAFFER_AGENT_TOKEN.`;
