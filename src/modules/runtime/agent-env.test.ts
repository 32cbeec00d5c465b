import { describe, expect, it } from 'vitest';
import { agentEnvironment } from './agent-env.js';
import type { SpawnSpec } from './contract.js';

const spec: SpawnSpec = {
  agent: { id: '00000000-0000-0000-0001-000000000001', slug: 'be-dev-1', role: 'developer', team: 'backend' },
  taskId: '11111111-2222-3333-4444-555555555555',
  workspace: '/work/tree',
  prompt: 'do it',
  provider: 'claude',
  gatewayUrl: 'http://127.0.0.1:8420',
  token: 'tok.en',
};

describe('agentEnvironment', () => {
  const serverEnv = {
    PATH: '/usr/bin',
    HOME: '/home/gaffer',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    GAFFER_AUTH_SECRET: 'server-secret',
    GAFFER_DATABASE_URL: 'postgres://u:p@db/gaffer',
    GAFFER_AGENT_TOKEN: 'someone-elses',
    AWS_SECRET_ACCESS_KEY: 'aws',
    ANTHROPIC_API_KEY: 'sk-ant',
  };

  it('keeps the scrubbed base, sets the identity and never passes the server’s own GAFFER_* variables', () => {
    const env = agentEnvironment({ spec, runId: 'run-1', serverEnv });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/gaffer',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      GAFFER_GATEWAY_URL: 'http://127.0.0.1:8420',
      GAFFER_AGENT_ID: spec.agent.id,
      GAFFER_AGENT_SLUG: 'be-dev-1',
      GAFFER_AGENT_ROLE: 'developer',
      GAFFER_AGENT_TEAM: 'backend',
      GAFFER_AGENT_TOKEN: 'tok.en',
      GAFFER_RUN_ID: 'run-1',
      GAFFER_TASK_ID: spec.taskId,
    });
  });

  it('passes named variables and provider entries, but never a GAFFER_* one through either door', () => {
    const env = agentEnvironment({
      spec: { ...spec, taskId: null, agent: { ...spec.agent, team: null } },
      runId: 'run-2',
      serverEnv,
      passEnv: ['ANTHROPIC_API_KEY', 'GAFFER_AUTH_SECRET'],
      extra: { GEMINI_CLI_HOME: '/tmp/x', GAFFER_DATABASE_URL: 'nope' },
    });
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant');
    expect(env.GEMINI_CLI_HOME).toBe('/tmp/x');
    expect(env.GAFFER_AUTH_SECRET).toBeUndefined();
    expect(env.GAFFER_DATABASE_URL).toBeUndefined();
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.GAFFER_TASK_ID).toBeUndefined();
    expect(env.GAFFER_AGENT_TEAM).toBe('');
  });
});
