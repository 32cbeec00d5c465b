/** The SSRF guard of research fetches: which addresses and URLs are refused, with loopback allowed or not. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkedUrl, fetchPage, guardedLookup, htmlToText, isForbiddenAddress } from './page-fetch.js';

describe('the research fetch guard', () => {
  it.each([
    ['127.0.0.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.0.10', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['fe80::1', true],
    ['fd12::1', true],
    ['0.0.0.0', true],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
  ])('treats %s as forbidden: %s', (ip, forbidden) => {
    expect(isForbiddenAddress(ip, false)).toBe(forbidden);
  });

  it('lets loopback through only when allowed, and private ranges never', () => {
    expect(isForbiddenAddress('127.0.0.1', true)).toBe(false);
    expect(isForbiddenAddress('::1', true)).toBe(false);
    expect(isForbiddenAddress('10.0.0.1', true)).toBe(true);
  });

  it('refuses other schemes, credentials in URLs and localhost', () => {
    expect(() => checkedUrl('gopher://example.com/', false)).toThrow(/only http and https/);
    expect(() => checkedUrl('http://user:pw@example.com/', false)).toThrow(/credentials/);
    expect(() => checkedUrl('http://localhost:8080/', false)).toThrow(/localhost/);
    expect(() => checkedUrl('http://127.0.0.1:8080/', false)).toThrow(/private, loopback or reserved/);
    expect(checkedUrl('https://example.com/a', false).hostname).toBe('example.com');
  });

  it('refuses, at connect time, a host name that resolves to loopback', async () => {
    const resolved = (allow: boolean) =>
      new Promise<{ error: Error | null; address: unknown }>((resolve) =>
        guardedLookup(allow)('localhost', { family: 4 }, (error, address) => resolve({ error, address })),
      );
    expect((await resolved(false)).error?.message).toMatch(/localhost resolves to 127.0.0.1/);
    expect(await resolved(true)).toEqual({ error: null, address: '127.0.0.1' });
  });

  it('fetches loopback only when allowed', async () => {
    const server = createServer((_req, res) => res.end('secret'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const limits = { maxBytes: 1000, timeoutMs: 2000, allowLoopback: false };
      await expect(fetchPage(`http://127.0.0.1:${port}/`, limits, 1000)).rejects.toMatchObject({
        code: 'research_url_refused',
      });
      const allowed = await fetchPage(`http://127.0.0.1:${port}/`, { ...limits, allowLoopback: true }, 1000);
      expect(allowed.content).toBe('secret');
    } finally {
      server.close();
    }
  });

  it('reduces HTML to its text', () => {
    expect(htmlToText('<p>a &lt;b&gt; &#65;&#x42;</p><script>evil()</script><div>c</div>')).toBe(
      'a <b> AB\nc',
    );
  });
});
