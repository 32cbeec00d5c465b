/** Reading the agent's identity and gateway from its environment, and refusing what cannot work. */
import { describe, expect, it } from 'vitest';
import { connectionFromEnv } from './connection.js';

const env = {
  GAFFER_GATEWAY_URL: 'http://127.0.0.1:8420/',
  GAFFER_AGENT_ID: 'be-dev-1',
  GAFFER_AGENT_TEAM: 'backend',
  GAFFER_AGENT_TOKEN: 'secret-token',
};

describe('agent-tools connection', () => {
  it('takes the identity from the environment, the role from --role when it is one', () => {
    expect(connectionFromEnv(env, 'developer', 'developer')).toEqual({
      ok: true,
      connection: {
        baseUrl: 'http://127.0.0.1:8420',
        agentId: 'be-dev-1',
        agentRole: 'developer',
        agentTeam: 'backend',
        token: 'secret-token',
      },
    });
    const bare = connectionFromEnv(
      {
        GAFFER_GATEWAY_URL: 'https://gaffer.example/base/?x=1',
        GAFFER_AGENT_ID: 'po',
        GAFFER_AGENT_ROLE: 'Product_Owner',
      },
      'board',
      'board',
    );
    expect(bare).toMatchObject({
      ok: true,
      connection: {
        baseUrl: 'https://gaffer.example/base',
        agentRole: 'product_owner',
        agentTeam: '',
        token: undefined,
      },
    });
  });

  it.each([
    [{ ...env, GAFFER_GATEWAY_URL: '' }, 'developer', 'set GAFFER_GATEWAY_URL'],
    [{ ...env, GAFFER_GATEWAY_URL: 'not a url' }, 'developer', 'GAFFER_GATEWAY_URL is not a URL'],
    [{ ...env, GAFFER_GATEWAY_URL: 'ftp://host' }, 'developer', 'must be an http(s) URL'],
    [{ ...env, GAFFER_GATEWAY_URL: 'http://u:p@host' }, 'developer', 'must not carry credentials'],
    [{ ...env, GAFFER_AGENT_ID: ' ' }, 'developer', 'set GAFFER_AGENT_ID'],
    [env, 'board', 'set GAFFER_AGENT_ROLE'],
    [{ ...env, GAFFER_AGENT_ROLE: 'wizard' }, 'developer', '"wizard" is not a role'],
    [{ ...env, GAFFER_AGENT_ROLE: 'qa' }, 'developer', 'does not use the developer verbs'],
  ] as const)('refuses %j for --role %s', (variables, role, message) => {
    const result = connectionFromEnv(variables, role === 'board' ? 'board' : 'developer', role);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(message);
    expect(!result.ok && result.message).not.toContain('secret-token');
  });
});
