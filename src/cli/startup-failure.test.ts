import { describe, expect, it } from 'vitest';
import { DataDirInUseError } from '../platform/db/data-dir-lock.js';
import { StartupError } from '../server.js';
import { describeStartupFailure, shownUrl } from './startup-failure.js';

const config = {
  databaseUrl: 'postgres://gaffer:hunter2@db.example:5432/gaffer',
  dataDir: '/srv/gaffer',
  redisUrl: 'redis://:pw@cache:6379/0',
  host: '127.0.0.1',
  port: 8420,
};
const errno = (code: string, message = code) => Object.assign(new Error(message), { code });
const line = (step: StartupError['step'], cause: unknown, over: Partial<typeof config> = {}) =>
  describeStartupFailure(new StartupError(step, { ...config, ...over }, cause));

describe('start-up failure lines', () => {
  it('hide credentials in URLs', () => {
    expect(shownUrl('postgres://u:p@h:1/x')).toBe('postgres://…@h:1/x');
    expect(shownUrl('redis://h:6379')).toBe('redis://h:6379');
  });

  it('name PostgreSQL, the cause and the variable to check', () => {
    expect(line('database', errno('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(
      'cannot reach PostgreSQL at postgres://…@db.example:5432/gaffer (connection refused) — check GAFFER_DATABASE_URL and that the server runs',
    );
    const aggregate = Object.assign(
      new AggregateError([errno('ECONNREFUSED'), errno('ECONNREFUSED')], ''),
      {},
    );
    expect(line('database', aggregate)).toContain('(connection refused)');
    expect(line('database', errno('28P01', 'password authentication failed for user "gaffer"'))).toBe(
      'PostgreSQL at postgres://…@db.example:5432/gaffer refused the login (password authentication failed for user "gaffer") — check the user and password in GAFFER_DATABASE_URL',
    );
    expect(line('database', errno('3D000', 'database "gaffer" does not exist'))).toContain(
      'database "gaffer" does not exist — create the database',
    );
    expect(line('database', new Error('timeout exceeded when trying to connect'))).toContain('(timed out)');
  });

  it('name the embedded database and who holds it', () => {
    expect(line('database', new DataDirInUseError('/srv/gaffer/pglite', 4242), { databaseUrl: '' })).toBe(
      'the embedded database in /srv/gaffer/pglite is in use by process 4242 (a running Gaffer?) — stop that process, or set GAFFER_DATA_DIR to another directory',
    );
    expect(line('database', errno('EACCES', 'permission denied'), { databaseUrl: '' })).toContain(
      'cannot open the embedded database under /srv/gaffer (permission denied)',
    );
  });

  it('name Redis and the port', () => {
    expect(
      line('redis', new Error('redis is not connected (connecting): connect ECONNREFUSED 127.0.0.1:6379')),
    ).toBe(
      'cannot reach Redis at redis://…@cache:6379/0 (connection refused) — check GAFFER_REDIS_URL and that the server runs (unset it to use the in-process store, single replica only)',
    );
    expect(line('listen', errno('EADDRINUSE'))).toBe(
      'cannot listen on 127.0.0.1:8420 (address in use) — another process holds the port; stop it or set GAFFER_PORT',
    );
    expect(line('listen', errno('EADDRNOTAVAIL'), { host: '::1' })).toContain('[::1]:8420 (no such address');
  });
});
