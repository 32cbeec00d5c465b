/**
 * The panel's front door. `GET /login` reads the CEO token from the URL fragment (`#token=...`,
 * which never reaches the server, its logs or a Referer), exchanges it for a session cookie, drops
 * it from the history and goes to the panel at `/` (served by panel-static.ts) — or back to the
 * panel page that asked for a sign-in (a link from a notification opened on a phone without a
 * session: the panel's sign-in screen left its path in localStorage, `gaffer-return-to`, for an
 * hour). `loginUrl` builds the link `gaffer start` prints.
 */
import { isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../../config.js';
import { htmlPage, sendHtmlPage } from './html-page.js';
import { CEO_IDENTITY } from './identity.js';
import { expiringToken } from './tokens.js';

/** Lifetime of the token inside a printed login link. */
export const LOGIN_TOKEN_TTL_SECONDS = 24 * 60 * 60;

/** `<publicUrl or http://host:port>/login#token=<expiring CEO token>`. */
export function loginUrl(
  config: Pick<Config, 'publicUrl' | 'host' | 'port'>,
  secret: string,
  now: Date,
): string {
  const token = expiringToken(secret, CEO_IDENTITY, LOGIN_TOKEN_TTL_SECONDS, now);
  return `${baseUrl(config)}/login#token=${token}`;
}

/** Where a browser reaches this server: GAFFER_PUBLIC_URL, else the bind address (loopback for a wildcard). */
export function baseUrl(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  // A wildcard bind address is not somewhere a browser can go; loopback is.
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${isIPv6(host) ? `[${host}]` : host}:${config.port}`;
}

const STYLE = [
  'body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}',
  '.error{color:#b00020}',
  'button{font:inherit;padding:.3rem .9rem}',
].join('');

// The scripts derive the base path from their own location, so Gaffer also works behind a path prefix.
const LOGIN_SCRIPT = `
(async function () {
  var status = document.getElementById('status');
  function fail(message) { status.textContent = message; status.className = 'error'; }
  var base = location.pathname.replace(/login\\/?$/, '');
  function returnTo() {
    try {
      var saved = JSON.parse(localStorage.getItem('gaffer-return-to') || 'null');
      localStorage.removeItem('gaffer-return-to');
      var fresh = saved && Date.now() - saved.at < 3600000;
      var path = fresh && typeof saved.path === 'string' ? saved.path : '';
      return path.indexOf(base) === 0 && path.indexOf('//') < 0 ? path : null;
    } catch (error) { return null; }
  }
  var token = new URLSearchParams(location.hash.slice(1)).get('token');
  history.replaceState(null, '', location.pathname + location.search);
  if (!token) { fail('This link carries no token. Use the login link that "gaffer start" prints, or get a fresh one with "gaffer login-url".'); return; }
  try {
    var response = await fetch(base + 'api/auth/session', {
      method: 'POST', headers: { 'X-Agent-Token': token }, credentials: 'same-origin', cache: 'no-store'
    });
    if (response.ok) { location.replace(returnTo() || base); return; }
    var body = await response.json().catch(function () { return null; });
    var message = body && body.error && body.error.message;
    fail('Sign-in failed: ' + (message || 'HTTP ' + response.status) + '. Get a fresh link with "gaffer login-url".');
  } catch (error) {
    fail('Could not reach Gaffer: ' + error.message);
  }
})();
`;

const LOGIN_PAGE = htmlPage({
  title: 'Gaffer · sign in',
  style: STYLE,
  script: LOGIN_SCRIPT,
  body: '<h1>Gaffer</h1>\n<p id="status" role="status">Signing in…</p>',
});

const htmlResponse = (description: string) => ({
  200: { description, content: { 'text/html': { schema: Type.String() } } },
});

export function registerPanelPages(app: FastifyInstance): void {
  app.get(
    '/login',
    {
      schema: {
        tags: ['panel'],
        summary: 'Panel sign-in page',
        description:
          'Open the link `gaffer start` prints: the token travels in the URL fragment, never to the server.',
        response: htmlResponse('HTML page that exchanges the token for a session cookie.'),
      },
    },
    async (_request, reply) => sendHtmlPage(reply, LOGIN_PAGE),
  );
}
