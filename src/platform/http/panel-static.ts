/**
 * Serves the built panel (`dist/panel`, made by `npm run build:panel`) from the same origin as the API.
 * Hashed files under `/assets/` are cached for a year (their name changes with their content);
 * `index.html` is never cached, so a new build is picked up on the next load. Any other GET that is
 * not an API, socket, docs or probe path is a panel URL (`/tasks/123`) and gets `index.html`: the
 * panel's router draws the page. Reserved paths keep their JSON 404. Without a build, `/` says how
 * to make one. The directory is looked at per request, so a build made while the server runs is
 * picked up.
 */
import { existsSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { htmlPage, sendHtmlPage } from './auth/html-page.js';
import { sendError } from './conventions.js';
import { AppError } from './errors.js';

/** `<package root>/dist/panel`, the same from `src/platform/http` (tsx, vitest) and `dist/platform/http`. */
export const DEFAULT_PANEL_DIR = fileURLToPath(new URL('../../../dist/panel', import.meta.url));

/** Path prefixes that belong to the server: never answered with the panel, even when nothing matches. */
export const RESERVED_PREFIXES = [
  '/api',
  '/ws',
  '/docs',
  '/health',
  '/ready',
  '/metrics',
  '/_guard',
  '/login',
];

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export const IMMUTABLE_CACHE = `public, max-age=${YEAR_SECONDS}, immutable`;

/**
 * What a GET path is for: a server path (reserved), a hashed asset, another file of the build
 * (has an extension), or a panel page (everything else).
 */
export function classifyPanelPath(path: string): 'reserved' | 'asset' | 'file' | 'page' {
  if (RESERVED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return 'reserved';
  if (path.startsWith('/assets/')) return 'asset';
  if (extname(path) !== '') return 'file';
  return 'page';
}

/** The Content-Security-Policy of the panel: its own scripts only; styles inline too (Radix, sonner). */
export const PANEL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT_PAGE = htmlPage({
  title: 'Gaffer · panel not built',
  style: 'body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}',
  script: '',
  body: [
    '<h1>Gaffer</h1>',
    '<p>The server is running, but the web panel has not been built yet.</p>',
    '<p>Build it with <code>npm run build:panel</code> (or run <code>npm start</code>, which builds what is ',
    'missing), then reload this page.</p>',
    '<p>The API works without it: <a href="docs">API documentation</a>.</p>',
  ].join(''),
});

const pageDocs = (summary: string, description: string) => ({
  tags: ['panel'],
  summary,
  description,
  response: {
    200: {
      description: 'The panel (HTML, or the requested build file).',
      content: { 'text/html': { schema: Type.String() } },
    },
    503: {
      description: 'The panel is not built: an HTML page saying how to build it.',
      content: { 'text/html': { schema: Type.String() } },
    },
  },
});

function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(url.split('?')[0] ?? '/');
  } catch {
    return null;
  }
}

export function registerPanelStatic(app: FastifyInstance, panelDir: string = DEFAULT_PANEL_DIR): void {
  const root = resolve(panelDir);
  void app.register(fastifyStatic, { serve: false });

  const sendIndex = (reply: FastifyReply) => {
    if (!existsSync(join(root, 'index.html'))) {
      return sendHtmlPage(reply.code(503), NOT_BUILT_PAGE);
    }
    return reply
      .header('content-security-policy', PANEL_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .sendFile('index.html', root, { cacheControl: false });
  };

  const sendBuildFile = (request: FastifyRequest, reply: FastifyReply, path: string, immutable: boolean) => {
    const file = join(root, path);
    // Only regular files inside the build, named without `..` (`send` refuses those too; the 404 is ours).
    const inside = !path.split('/').includes('..') && file.startsWith(`${root}/`);
    if (!inside || !existsSync(file) || !statSync(file).isFile()) {
      return sendError(request, reply, new AppError(404, 'not_found', `no panel file ${path}`));
    }
    if (immutable) reply.header('cache-control', IMMUTABLE_CACHE);
    else reply.header('cache-control', 'no-cache');
    return reply
      .header('x-content-type-options', 'nosniff')
      .sendFile(path.slice(1), root, { cacheControl: false });
  };

  app.get(
    '/',
    {
      schema: pageDocs(
        'The panel (Inbox)',
        'The CEO’s web panel, a single-page app. Sign in first with the link `gaffer start` prints.',
      ),
    },
    async (_request, reply) => sendIndex(reply),
  );

  app.get(
    '/*',
    {
      // The SPA fallback is no API operation: kept out of the OpenAPI document.
      schema: {
        hide: true,
        ...pageDocs(
          'Panel pages and build files',
          'Any other GET outside /api, /ws, /docs and the probes: hashed `/assets/*` (cached for a year), other ' +
            'build files, or a panel URL such as `/tasks/{id}`, answered with the panel’s index.html.',
        ),
      },
    },
    async (request, reply) => {
      const path = decodedPath(request.url);
      if (path === null) return sendError(request, reply, new AppError(404, 'not_found', 'no such path'));
      switch (classifyPanelPath(path)) {
        case 'reserved':
          return sendError(request, reply, new AppError(404, 'not_found', `no route GET ${path}`));
        case 'asset':
          return sendBuildFile(request, reply, path, true);
        case 'file':
          return sendBuildFile(request, reply, path, false);
        case 'page':
          return sendIndex(reply);
      }
    },
  );
}
