/**
 * Security headers on every response, with @fastify/helmet. The Content-Security-Policy suits the
 * panel (one origin: its scripts, styles, images and API/WebSocket calls all come from `self`) and
 * the API docs; pages with a stricter policy of their own (the sign-in page) keep theirs. No
 * upgrade-insecure-requests: TLS is the reverse proxy's job and plain-HTTP loopback must keep working.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true, preload: false },
    xFrameOptions: { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
  });
}
