import { describe, expect, it } from 'vitest';
import { OriginationLedger, repoKey } from './origination.js';

describe('repoKey', () => {
  it('treats spellings of one repository alike', () => {
    const key = repoKey('https://github.com/acme/shop');
    expect(repoKey('https://GitHub.com/Acme/Shop.git')).toBe(key);
    expect(repoKey('https://github.com/acme/shop/')).toBe(key);
    expect(repoKey(' https://github.com/acme/shop.git/ ')).toBe(key);
    expect(repoKey('https://github.com/acme/shop-api')).not.toBe(key);
  });
});

describe('OriginationLedger', () => {
  const repo = 'https://github.com/acme/shop';

  it('refuses a duplicate of an open task before looking at the caps', () => {
    const ledger = new OriginationLedger({ maxPerCycle: 0, maxOpenPerRepo: 0 }, [
      { taskId: 't1', repo, key: 'ci.yml' },
    ]);
    expect(ledger.verdict(repo, 'ci.yml')).toBe('duplicate');
  });

  it('caps what one cycle opens', () => {
    const ledger = new OriginationLedger({ maxPerCycle: 1, maxOpenPerRepo: 3 }, []);
    expect(ledger.verdict(repo, 'ci.yml')).toBe('open');
    ledger.opened(repo, 'ci.yml');
    expect(ledger.cycleFull).toBe(true);
    expect(ledger.verdict(repo, 'ci.yml')).toBe('duplicate');
    expect(ledger.verdict('https://github.com/acme/other', 'ci.yml')).toBe('cycle_cap');
  });

  it('caps the open tasks of one repository, counting those already open', () => {
    const ledger = new OriginationLedger({ maxPerCycle: 10, maxOpenPerRepo: 2 }, [
      { taskId: 't1', repo, key: 'a.yml' },
    ]);
    expect(ledger.verdict(repo, 'b.yml')).toBe('open');
    ledger.opened(repo, 'b.yml');
    expect(ledger.verdict(repo, 'c.yml')).toBe('repo_cap');
    expect(ledger.verdict('https://github.com/acme/other', 'c.yml')).toBe('open');
  });
});
