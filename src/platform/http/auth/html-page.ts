/**
 * Self-contained HTML pages with a Content-Security-Policy that allows exactly their own inline
 * script and style (by SHA-256 hash) and nothing else: no external assets, no framing, no forms.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export interface HtmlPage {
  readonly html: string;
  readonly contentSecurityPolicy: string;
}

const hashSource = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** `body` is trusted markup written in this code base; nothing from a request is interpolated. */
export function htmlPage(parts: { title: string; style: string; body: string; script: string }): HtmlPage {
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${parts.title}</title>`,
    `<style>${parts.style}</style>`,
    '</head>',
    '<body>',
    parts.body,
    `<script>${parts.script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${hashSource(parts.script)}`,
    `style-src ${hashSource(parts.style)}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}

export function sendHtmlPage(reply: FastifyReply, page: HtmlPage): FastifyReply {
  return reply
    .header('content-security-policy', page.contentSecurityPolicy)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page.html);
}
