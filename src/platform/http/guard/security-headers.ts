/**
 * Security headers on every response, decided by @fastify/helmet. The Content-Security-Policy suits
 * the panel (one origin: its scripts, styles, images and API/WebSocket calls all come from `self`)
 * and the API docs; a page with a stricter policy of its own (the sign-in page) keeps it. No
 * upgrade-insecure-requests: TLS is the reverse proxy's job and plain-HTTP loopback must keep working.
 *
 * The plugin rebuilds helmet's middleware on every request, which halved the requests per second
 * of a cheap route; the headers do not depend on the request, so helmet computes them once, at
 * start, and the guard's onRequest hook gives every response that set (first, so that its own
 * refusals carry them too).
 */
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyReply } from 'fastify';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Component libraries set inline styles; scripts stay strict.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
  upgradeInsecureRequests: null,
};

export const PERMISSIONS_POLICY = 'geolocation=(), microphone=(), camera=()';

const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true, preload: false },
  xFrameOptions: { action: 'sameorigin' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginEmbedderPolicy: false,
  // Headers for browsers that are gone (IE8's download prompt, Flash's cross-domain policies, the
  // old XSS auditor, DNS prefetching of a same-origin API): no browser the panel runs in reads
  // them, and each costs every response; the CSP covers what the XSS header once did.
  xXssProtection: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xDnsPrefetchControl: false,
};

/** Headers every response carries anyway; the rest of what helmet sets is the security set. */
const NOT_SECURITY = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/** The header set helmet sends with HELMET_OPTIONS, computed on a throwaway instance. */
export async function securityHeaders(): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, HELMET_OPTIONS);
  probe.get('/', async () => '');
  try {
    const response = await probe.inject({ url: '/' });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (!NOT_SECURITY.has(name) && value !== undefined) headers[name] = String(value);
    }
    return { ...headers, 'permissions-policy': PERMISSIONS_POLICY };
  } finally {
    await probe.close();
  }
}

/** The function that adds the security headers to a reply (the guard's first onRequest step). */
export async function securityHeadersStep(): Promise<(reply: FastifyReply) => void> {
  const headers = await securityHeaders();
  return (reply) => {
    reply.headers(headers);
  };
}
