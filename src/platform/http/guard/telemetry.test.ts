import { describe, expect, it } from 'vitest';
import { TELEMETRY_HEADERS, telemetryHeaders } from './telemetry.js';

describe('telemetry headers', () => {
  it('carries only allow-listed headers: never tokens, cookies or authorization', () => {
    const headers = telemetryHeaders({
      'user-agent': 'sqlmap/1.8',
      'x-agent-token': 'f'.repeat(64),
      cookie: 'gaffer_session=secret-session',
      authorization: 'Bearer secret',
      'x-api-key': 'secret',
      'proxy-authorization': 'Basic secret',
      'x-agent-id': 'dev-1',
      'x-correlation-id': 'c-1',
    });
    expect(headers).toEqual({ 'user-agent': 'sqlmap/1.8', 'x-correlation-id': 'c-1' });
    expect(JSON.stringify(headers)).not.toMatch(/secret|ffff/);
  });

  it('lists no credential-bearing header', () => {
    for (const name of TELEMETRY_HEADERS) expect(name).not.toMatch(/token|cookie|auth|key|session/);
  });
});
