/** The usage text of `gaffer` and of each of its commands (`gaffer <command> --help` prints it). */
import { AGENT_TOOLS_USAGE } from '../agent-tools/usage.js';

export const USAGE = `usage: gaffer <command> [options]

  start                         run the service (prints the panel login URL)
  demo                          run the service with the built-in scripted agents (a simulation)
                                working a sample task on a sample project; prints each move
  migrate                       apply database migrations and exit
  token ceo                     print the CEO's static token (for the panel or integrations)
  token <slug> [--ttl SECONDS]  print the token of a roster agent, signed over its UUID, role and
                                team (expiring when --ttl is given); the headers go to stderr
  token <id> --role R [--team T] [--ttl SECONDS]
                                print a token for any identity (expiring when --ttl is given)
  login-url                     print a fresh panel login URL
  doctor                        check what this Gaffer has and misses (stores, git, agent CLIs,
                                model providers, sandbox), with a remedy per problem
  backup <file>                 write a backup of the whole store (while the server runs, or not)
  restore <file> [--force]      restore a backup into the configured store (the server stopped)
  store move --to URL           copy the embedded store into an empty PostgreSQL database
  evidence rebuild              fold every task's outcome again from the audit trail and ledger
  config [--markdown]           print the configuration table
  agent-tools --role ROLE       serve one role's gateway verbs as a stdio MCP server (for agent CLIs)

  gaffer <command> --help       that command's usage
  --debug                       on a failure, also print the stack trace (so does GAFFER_LOG_LEVEL=debug)`;

const STORES = `  The stores come from the environment (GAFFER_DATA_DIR, GAFFER_DATABASE_URL, GAFFER_REDIS_URL; see
  \`gaffer config\`). If one cannot be reached, gaffer says which in one line and exits 1.`;

export const COMMAND_USAGE: Record<string, string> = {
  start: `usage: gaffer start [--debug]

  Runs the service on GAFFER_HOST:GAFFER_PORT and prints the panel login URL. Logs go to stdout,
  pretty on a terminal and JSON otherwise (GAFFER_LOG_FORMAT). SIGINT or SIGTERM stops it.
${STORES}`,
  demo: `usage: gaffer demo [--debug]

  Runs the service with the built-in scripted agents (a simulation: no AI model is called) on a
  sample project, creates a sample task for the main PM, prints each move of the task and its
  subtasks (state, agent, verb) until it awaits the CEO, then the command that approves and merges it.
${STORES}`,
  doctor: `usage: gaffer doctor [--debug]

  Prints one table: the runtime in force and its sandbox, git, each agent CLI on the PATH (its version
  against the one the templates are tested with), and — asked of the running server at
  GAFFER_HOST:GAFFER_PORT — the stores and each connected model provider, with a remedy per problem.
  Exits 1 when something the configuration needs is missing.`,
  backup: `usage: gaffer backup <file> [--debug]

  Writes a backup of the whole store to <file>: gzip-compressed JSON lines, one transaction's view,
  restorable into PGlite or PostgreSQL. Asks the running server at GAFFER_HOST:GAFFER_PORT (writes go
  on meanwhile on PostgreSQL); with no server answering, reads the configured store itself. The file
  is read back and checked. The auth secret is not in it: keep a copy beside it.
${STORES}`,
  restore: `usage: gaffer restore <file> [--force] [--debug]

  Restores a backup into the configured store (stop the server first): the file is checked whole
  before anything is written; the store is migrated to the backup's schema, filled in one
  transaction, then migrated to this Gaffer's. A store that holds rows is refused unless --force,
  which replaces everything in it. Prints the tables and rows restored.
${STORES}`,
  store: `usage: gaffer store move --to postgres://… [--debug]

  Copies the configured store (the embedded one, as a rule) into an empty PostgreSQL database: the
  schema by the normal migrations, every table's rows parents first in one transaction, sequences set,
  then each table's row count and checksum compared on both sides. Stop the server first. Prints the
  variables to set next; keep GAFFER_AUTH_SECRET (tokens and sessions depend on it).
${STORES}`,
  evidence: `usage: gaffer evidence rebuild [--debug]

  Folds every task's outcome (who did each stage, first-pass QA, rework, findings, time, runs, cost)
  again from the record alone — the audit trail, the runs, the findings and the usage ledger — and
  rewrites the rows the scorecards read. Asks the running server at GAFFER_HOST:GAFFER_PORT (agents
  may go on working); with no server answering, opens the configured store itself. Prints the count.
${STORES}`,
  migrate: `usage: gaffer migrate [--debug]

  Applies pending database migrations and exits (\`gaffer start\` does this too).
${STORES}`,
  token: `usage: gaffer token ceo [--ttl SECONDS]
       gaffer token <slug> [--ttl SECONDS]
       gaffer token <id> --role ROLE [--team TEAM] [--ttl SECONDS]

  Prints a token to send as X-Agent-Token: the CEO's; a roster agent's, signed over its UUID, role
  and team (the headers to send go to stderr); or any identity's with --role. Static unless --ttl
  gives its lifetime in seconds. The secret is GAFFER_AUTH_SECRET or GAFFER_DATA_DIR/auth-secret.
  While a server runs on the embedded database (which it holds), the roster entry is read from that
  server at GAFFER_HOST:GAFFER_PORT.`,
  'login-url': `usage: gaffer login-url

  Prints a fresh panel login URL (a CEO token valid for 24 hours, in the URL fragment).`,
  config: `usage: gaffer config [--markdown]

  Prints the configuration table: every GAFFER_* variable, its default and its meaning.`,
  'agent-tools': AGENT_TOOLS_USAGE,
};
