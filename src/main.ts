#!/usr/bin/env node
/**
 * The `gaffer` command line: start the service, apply migrations, print tokens and login links,
 * print the configuration table, check what is missing (doctor), back up and restore the store, rebuild the evidence. Every command answers `--help`; a failure to start is one line
 * saying what to check (the stack trace only with --debug or GAFFER_LOG_LEVEL=debug).
 */
import { parseCommand, usageError, wantsHelp } from './cli/args.js';
import { describeStartupFailure } from './cli/startup-failure.js';
import type { TokenLookupError } from './cli/token.js';
import { COMMAND_USAGE, USAGE } from './cli/usage.js';
import { type Config, ConfigError, configMarkdownTable, loadConfig } from './config.js';
import type { StartupError } from './server.js';

// Each command loads only what it runs (an agent's `agent-tools` starts with every spawn).
const server = () => import('./server.js');
const auth = () => import('./platform/http/auth/index.js');

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'agent-tools') {
    if (!wantsHelp(rest)) return (await import('./agent-tools/command.js')).runAgentTools(rest);
    console.log(COMMAND_USAGE['agent-tools']);
    return 0;
  }
  if (command === 'token') return (await import('./cli/token.js')).runToken(() => loadConfig(), rest);
  if (command === 'store') {
    const parsed = parseCommand('store', rest, { to: { type: 'string' } }, 1);
    if (!parsed.ok) return parsed.exitCode;
    const to = (parsed.values as { to?: string }).to;
    if (parsed.positionals[0] !== 'move' || !to)
      return usageError('store', 'say: gaffer store move --to URL').exitCode;
    return (await import('./cli/backup.js')).runStoreMove(loadConfig(), to);
  }
  if (command === 'evidence') {
    const parsed = parseCommand('evidence', rest, {}, 1);
    if (!parsed.ok) return parsed.exitCode;
    if (parsed.positionals[0] !== 'rebuild')
      return usageError('evidence', 'say: gaffer evidence rebuild').exitCode;
    return (await import('./cli/evidence.js')).runEvidenceRebuild(loadConfig());
  }
  if (command === 'backup' || command === 'restore') {
    const options: Record<string, { type: 'boolean' }> =
      command === 'restore' ? { force: { type: 'boolean' } } : {};
    const parsed = parseCommand(command, rest, options, 1);
    if (!parsed.ok) return parsed.exitCode;
    const [file] = parsed.positionals;
    if (!file) return usageError(command, 'name the backup file').exitCode;
    const backup = await import('./cli/backup.js');
    return command === 'backup'
      ? backup.runBackup(loadConfig(), file)
      : backup.runRestore(loadConfig(), file, (parsed.values as { force?: boolean }).force === true);
  }
  if (command !== undefined && command in COMMAND_USAGE) {
    const options: Record<string, { type: 'boolean' }> =
      command === 'config' ? { markdown: { type: 'boolean' } } : {};
    const parsed = parseCommand(command, rest, options);
    if (!parsed.ok) return parsed.exitCode;
  }
  switch (command) {
    case 'start':
      return start(loadConfig());
    case 'demo':
      return (await import('./demo/demo.js')).runDemo(loadConfig());
    case 'migrate': {
      const database = await (await server()).openConfiguredDatabase(loadConfig());
      await database.close();
      console.log(`migrations applied (${database.kind})`);
      return 0;
    }
    case 'doctor':
      return (await import('./cli/doctor.js')).runDoctor(loadConfig());
    case 'login-url': {
      const config = loadConfig();
      const { loginUrl, loadOrCreateSecret } = await auth();
      console.log(loginUrl(config, loadOrCreateSecret(config), new Date()));
      return 0;
    }
    case 'config':
      console.log(configMarkdownTable());
      return 0;
    case 'help':
      if (rest[0] && rest[0] in COMMAND_USAGE) console.log(COMMAND_USAGE[rest[0]]);
      else console.log(USAGE);
      return 0;
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    case undefined:
      console.error(USAGE);
      return 2;
    default:
      console.error(`gaffer: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

async function start(config: Config): Promise<number> {
  const [{ startServer }, { loginUrl }] = await Promise.all([server(), auth()]);
  const running = await startServer(config);
  const shutdown = (signal: string) => {
    running.app.log.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  const login = loginUrl(
    config.publicUrl ? config : { ...config, publicUrl: running.url },
    running.platform.secret,
    new Date(),
  );
  const { agentSandbox, probeRunLimits, runLimitsWarnings, sandboxWarnings } = await import(
    './platform/process/index.js'
  );
  const [warning] = sandboxWarnings(await agentSandbox(config).state());
  const [limitsWarning] = runLimitsWarnings(await probeRunLimits());
  const agents = [
    warning ? `WARNING: ${warning}` : 'Agents run sandboxed (bubblewrap), each with a network of its own.',
    ...(limitsWarning ? [`WARNING: ${limitsWarning}`] : []),
  ].join('\n');
  for (const said of [warning, limitsWarning]) if (said) running.app.log.warn(said);
  process.stdout.write(
    `\nGaffer is running at ${running.url}\nOpen the panel: ${login}\nAPI docs: ${running.url}/docs\n${agents}\n\n`,
  );
  return -1;
}

/** One line for a failure people can act on; the stack trace only when asked for. */
function report(error: unknown, argv: string[]): void {
  const debug =
    argv.includes('--debug') || /^(debug|trace)$/i.test(process.env.GAFFER_LOG_LEVEL?.trim() ?? '');
  // The lazily loaded modules' errors are told by name (each sets its own).
  const named = (name: string) => error instanceof Error && error.name === name;
  if (error instanceof ConfigError) console.error(`gaffer: invalid configuration: ${error.message}`);
  else if (named('SecretFileError')) console.error(`gaffer: ${(error as Error).message}`);
  else if (named('StartupError')) console.error(`gaffer: ${describeStartupFailure(error as StartupError)}`);
  else if (named('TokenLookupError')) {
    const { message, hint } = error as TokenLookupError;
    console.error(`gaffer token: ${message}\n  hint: ${hint}`);
  } else
    console.error(
      `gaffer: ${(error as Error)?.message ?? String(error)}${debug ? '' : ' (--debug or GAFFER_LOG_LEVEL=debug shows the stack trace)'}`,
    );
  if (debug && error instanceof Error)
    console.error((error.cause as Error | undefined)?.stack ?? error.stack);
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    report(error, argv);
    process.exit(1);
  },
);
