import { describe, expect, it } from 'vitest';
import { allowedFieldsFor, WAF_ALLOW_LIST } from './waf-allow-list.js';
import { BODY_SCAN_BUDGET, scanBody, scanUrl } from './waf-scan.js';

const XSS = '<script>alert(1)</script>';
const SQLI = "x' OR '1'='1";

describe('the per-route allow-list', () => {
  it('lets attack-looking prose through the free-text fields of a task', () => {
    const allowed = allowedFieldsFor('/api/tasks');
    const body = {
      title: `Escape ${XSS} in the title bar`,
      description: `The search box passes ${SQLI} straight into SQL`,
      acceptance_criteria: ['`../../etc/passwd` is refused by the file route'],
      team: 'backend',
    };
    expect(scanBody(body, allowed)).toBeNull();
  });

  it('still reads identifiers and enums on the same route', () => {
    expect(scanBody({ title: 'ok', project_id: SQLI }, allowedFieldsFor('/api/tasks'))).toEqual({
      category: 'sql_injection',
      where: 'body.project_id',
    });
  });

  it('skips an allowed field at any depth (a finding’s code inside findings[])', () => {
    const allowed = allowedFieldsFor('/api/tasks/:id/findings');
    const body = {
      items: [{ severity: 'high', code: `query("select * from t where id='" + id + "' OR 1=1")` }],
    };
    expect(scanBody(body, allowed)).toBeNull();
    expect(scanBody({ items: [{ severity: XSS }] }, allowed)?.category).toBe('xss');
  });

  it('leaves the gateway’s bodies unread and scans an unlisted route whole', () => {
    expect(
      scanBody({ notes: XSS, anything: SQLI }, allowedFieldsFor('/api/v1/flow/:route/:verb')),
    ).toBeNull();
    expect(scanBody({ bot_token: XSS }, allowedFieldsFor('/api/telegram/credentials'))?.where).toBe(
      'body.bot_token',
    );
    expect(scanBody({ description: XSS }, allowedFieldsFor(undefined))?.category).toBe('xss');
  });

  it('matches exact patterns exactly and prefixes by prefix', () => {
    const list = [
      { route: '/api/a', bodyFields: ['x'] },
      { route: '/api/b*', bodyFields: ['y'] },
    ];
    expect([...allowedFieldsFor('/api/a', list).body]).toEqual(['x']);
    expect(allowedFieldsFor('/api/a/:id', list).body.size).toBe(0);
    expect([...allowedFieldsFor('/api/b/:id/c', list).body]).toEqual(['y']);
  });

  it('names only routes under /api', () => {
    for (const entry of WAF_ALLOW_LIST) expect(entry.route.startsWith('/api/')).toBe(true);
  });

  it('reads no more than its budget of a huge body', () => {
    const body = { a: 'x'.repeat(BODY_SCAN_BUDGET), b: XSS };
    expect(scanBody(body, allowedFieldsFor(undefined))).toBeNull();
    expect(scanBody({ b: XSS, a: 'x'.repeat(BODY_SCAN_BUDGET) }, allowedFieldsFor(undefined))?.category).toBe(
      'xss',
    );
  });
});

describe('URL scanning', () => {
  it('flags a query value, and a query name', () => {
    expect(scanUrl('/api/tasks?q=x', { q: SQLI }, allowedFieldsFor('/api/tasks'))).toEqual({
      category: 'sql_injection',
      where: 'query.q',
    });
    expect(scanUrl('/api/tasks?x', { [XSS]: '1' }, allowedFieldsFor('/api/tasks'))?.category).toBe('xss');
  });

  it('leaves an allowed query parameter to the route’s own validation', () => {
    const allowed = allowedFieldsFor('/api/git/file');
    expect(
      scanUrl('/api/git/file?path=..%2F..%2Fetc%2Fpasswd', { path: '../../etc/passwd' }, allowed),
    ).toBeNull();
    expect(scanUrl('/api/git/file?branch=x', { branch: '../../etc/passwd' }, allowed)?.where).toBe(
      'query.branch',
    );
  });

  it('flags scanner paths before anything else', () => {
    expect(scanUrl('/.env', {}, allowedFieldsFor(undefined))).toEqual({
      category: 'scanner_path',
      where: 'path',
    });
  });
});
