#!/usr/bin/env node
/**
 * The `gaffer` command line: start the service, apply migrations, print tokens and login links,
 * print the configuration table.
 */
import { parseArgs } from 'node:util';
import { runAgentTools } from './agent-tools/command.js';
import { type Config, ConfigError, configMarkdownTable, loadConfig } from './config.js';
import { runDemo } from './demo/demo.js';
import { rosterTokenSubject } from './modules/agents/index.js';
import { openDatabase } from './platform/db/client.js';
import {
  CEO_IDENTITY,
  expiringToken,
  isRole,
  loadOrCreateSecret,
  loginUrl,
  SecretFileError,
  staticToken,
} from './platform/http/auth/index.js';
import type { TokenSubject } from './platform/http/auth/tokens.js';
import { startServer } from './server.js';

const USAGE = `usage: gaffer <command>

  start                         run the service (prints the panel login URL)
  demo                          run the service with the built-in scripted agents (a simulation)
                                working a sample task on a sample project
  migrate                       apply database migrations and exit
  token ceo                     print the CEO's static token (for the panel or integrations)
  token <slug> [--ttl SECONDS]  print the token of a roster agent, signed over its UUID, role and
                                team (expiring when --ttl is given); the headers go to stderr
  token <id> --role R [--team T] [--ttl SECONDS]
                                print a token for any identity (expiring when --ttl is given)
  login-url                     print a fresh panel login URL
  config [--markdown]           print the configuration table
  agent-tools --role ROLE       serve one role's gateway verbs as a stdio MCP server (for agent CLIs)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return start(loadConfig());
    case 'demo':
      return runDemo(loadConfig());
    case 'migrate': {
      const config = loadConfig();
      const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
      await database.close();
      console.log(`migrations applied (${database.kind})`);
      return 0;
    }
    case 'token':
      return printToken(loadConfig(), rest);
    case 'login-url': {
      const config = loadConfig();
      console.log(loginUrl(config, loadOrCreateSecret(config), new Date()));
      return 0;
    }
    case 'config':
      console.log(configMarkdownTable());
      return 0;
    case 'agent-tools':
      return runAgentTools(rest);
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      console.error(`gaffer: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

async function start(config: Config): Promise<number> {
  const server = await startServer(config);
  const shutdown = (signal: string) => {
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  const login = loginUrl(
    config.publicUrl ? config : { ...config, publicUrl: server.url },
    server.platform.secret,
    new Date(),
  );
  process.stdout.write(
    `\nGaffer is running at ${server.url}\nOpen the panel: ${login}\nAPI docs: ${server.url}/docs\n\n`,
  );
  return -1;
}

async function printToken(config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { role: { type: 'string' }, team: { type: 'string' }, ttl: { type: 'string' } },
  });
  const [id] = positionals;
  if (!id) {
    console.error(`gaffer token: name an identity\n\n${USAGE}`);
    return 2;
  }
  const ttl = values.ttl === undefined ? undefined : Number(values.ttl);
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) {
    console.error('gaffer token: --ttl must be a positive number of seconds');
    return 2;
  }
  let subject: TokenSubject;
  if (values.role !== undefined) {
    subject = { id, role: values.role, team: values.team ?? '' };
    if (!isRole(subject.role)) {
      console.error(`gaffer token: --role must be one of the roles (got "${subject.role}")`);
      return 2;
    }
  } else if (id === 'ceo') {
    subject = CEO_IDENTITY;
  } else {
    const found = await rosterSubject(config, id);
    if (!found) return 2;
    subject = found;
  }
  const secret = loadOrCreateSecret(config);
  console.log(ttl ? expiringToken(secret, subject, ttl) : staticToken(secret, subject));
  return 0;
}

/** The roster agent's UUID, role and team (agents sign over their UUID); null after reporting why not. */
async function rosterSubject(config: Config, slug: string): Promise<TokenSubject | null> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const lookup = await rosterTokenSubject(database.db, slug);
    if (!lookup.found) {
      console.error(
        lookup.reason === 'retired'
          ? `gaffer token: agent "${slug}" is retired; its tokens no longer work`
          : `gaffer token: no agent "${slug}" in the roster (see GET /api/agents, ` +
              'or give --role and --team for an identity outside the roster)',
      );
      return null;
    }
    const { id, role, team } = lookup.subject;
    console.error(
      `gaffer token: ${lookup.slug} — send with X-Agent-ID: ${id}, X-Agent-Role: ${role}` +
        `${team ? `, X-Agent-Team: ${team}` : ''}, X-Agent-Token: <the token>`,
    );
    return lookup.subject;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(`gaffer: invalid configuration: ${error.message}`);
    else if (error instanceof SecretFileError) console.error(`gaffer: ${error.message}`);
    else console.error(`gaffer: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
