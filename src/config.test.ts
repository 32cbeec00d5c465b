import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configMarkdownTable, isCidr, loadConfig } from './config.js';

describe('configuration', () => {
  it('has the specification defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      secureMode: true,
      ciWatchIntervalSeconds: 1800,
      ciWatchMaxPerCycle: 1,
      ciWatchMaxOpenTasks: 3,
      depUpdateIntervalSeconds: 604_800,
      depUpdateMaxPerCycle: 1,
      depUpdateMaxOpenTasks: 3,
      releaseManagerEnabled: false,
      releaseMinCommits: 8,
      releaseManagerIntervalSeconds: 3600,
      releaseSignCommits: false,
      guardScanResponseBody: false,
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it('parses values of every kind', () => {
    const config = loadConfig({
      GAFFER_PORT: '9000',
      GAFFER_SECURE_MODE: 'false',
      GAFFER_DATABASE_URL: 'postgres://u@db:5432/gaffer',
      GAFFER_INTERNAL_NETWORKS: '10.0.0.0/8, fd00::/8,192.168.1.7',
      GAFFER_LOG_LEVEL: 'DEBUG',
      GAFFER_AGENT_SANDBOX: 'off',
      GAFFER_AGENT_SANDBOX_READ: ' /opt/cli//bin/.., /srv/tools ',
    });
    expect(config.port).toBe(9000);
    expect(config.secureMode).toBe(false);
    expect(config.internalNetworks).toEqual(['10.0.0.0/8', 'fd00::/8', '192.168.1.7']);
    expect(config.logLevel).toBe('debug');
    expect(config.agentSandbox).toBe('off');
    expect(config.agentSandboxRead).toEqual(['/opt/cli', '/srv/tools']);
  });

  it.each([
    ['GAFFER_PORT', 'eighty', 'GAFFER_PORT: expected a whole number, got "eighty"'],
    ['GAFFER_PORT', '70000', 'GAFFER_PORT: must be between 0 and 65535, got 70000'],
    ['GAFFER_SECURE_MODE', 'maybe', 'GAFFER_SECURE_MODE: expected true or false, got "maybe"'],
    ['GAFFER_DATABASE_URL', 'mysql://x', 'GAFFER_DATABASE_URL: expected a postgres: or postgresql: URL'],
    ['GAFFER_REDIS_URL', 'not a url', 'GAFFER_REDIS_URL: not a valid URL'],
    ['GAFFER_AUTH_SECRET', 'short', 'GAFFER_AUTH_SECRET: must be at least 32 characters'],
    [
      'GAFFER_INTERNAL_NETWORKS',
      '10.0.0.0/33',
      'GAFFER_INTERNAL_NETWORKS: "10.0.0.0/33" is not an IP address or CIDR block',
    ],
    [
      'GAFFER_LOG_LEVEL',
      'loud',
      'GAFFER_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    ],
    [
      'GAFFER_CI_WATCH_INTERVAL_SECONDS',
      '0',
      'GAFFER_CI_WATCH_INTERVAL_SECONDS: must be between 1 and 31536000, got 0',
    ],
    ['GAFFER_AGENT_SANDBOX', 'maybe', 'GAFFER_AGENT_SANDBOX: expected one of on, off, got "maybe"'],
    [
      'GAFFER_AGENT_SANDBOX_READ',
      '/opt/cli,tools',
      'GAFFER_AGENT_SANDBOX_READ: "tools" is not an absolute path below "/"',
    ],
    ['GAFFER_AGENT_SANDBOX_READ', '/', 'GAFFER_AGENT_SANDBOX_READ: "/" is not an absolute path below "/"'],
    ['GAFFER_RELEASE_GIT_EMAIL', 'nobody', 'GAFFER_RELEASE_GIT_EMAIL: not an email address'],
    ['GAFFER_PROT', '1', 'GAFFER_PROT: unknown variable (see the configuration table in the README)'],
  ])('rejects %s=%s with a one-line message naming the variable', (name, value, message) => {
    const attempt = () => loadConfig({ [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).variable).toBe(name);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('leaves the test suite’s and the benchmarks’ own variables alone', () => {
    expect(() => loadConfig({ GAFFER_TEST_DATABASE_URL: 'x', GAFFER_BENCH_DATABASE_URL: 'y' })).not.toThrow();
  });

  it('tolerates the environment Gaffer gives a spawned agent', () => {
    const agentEnv = { GAFFER_GATEWAY_URL: 'http://127.0.0.1:8420', GAFFER_AGENT_ID: 'be-dev-1' };
    expect(() => loadConfig({ ...agentEnv, GAFFER_AGENT_TOKEN: 'x', GAFFER_TASK_ID: 'y' })).not.toThrow();
    expect(() => loadConfig({ GAFFER_AGENT_TOKENS: 'x' })).toThrow('GAFFER_AGENT_TOKENS: unknown variable');
  });

  it('recognises CIDR blocks and addresses', () => {
    expect(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'].every(isCidr)).toBe(true);
    expect(['10.0.0/8', '1.2.3.4/40', 'host', '::1/129', '1.2.3.4/x'].some(isCidr)).toBe(false);
  });

  it('is documented in the configuration table of docs/configuration.md, generated from the same declarations', () => {
    const readme = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    expect(readme).toContain(configMarkdownTable());
  });
});
