/**
 * The request guard (platform/http/guard): security headers, IP bans, the WAF, rate limits, the
 * behaviour rules and telemetry, configured from GAFFER_GUARD_*; plus /_guard/status and the CEO's
 * ban routes. Registered before authentication, so bans and the WAF answer before any token is
 * checked. With GAFFER_GUARD_ENABLED=false only /_guard/status remains (reporting the guard off).
 *
 * Per request, in order: ban (everyone, whitelist or not) → WAF on path and query (not on excluded
 * paths) → failed-authentication limit and, for unmatched paths, the general limit (not internal)
 * → authentication → the route's rate limit (not internal) → WAF on the JSON body → the route.
 * After the response: a 401 counts toward the failed-authentication limit, and the behaviour
 * rules count (neither for internal callers nor excluded paths).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Platform } from '../../context.js';
import { internalNetworks, isInternalRequest } from '../internal-network.js';
import { registerBanRoutes } from './ban-routes.js';
import { banStoreFor } from './ban-store.js';
import { Bans } from './bans.js';
import { BehaviourRules } from './behaviour.js';
import { type GuardCheck, runChecks } from './checks.js';
import { registerClientJudge } from './client.js';
import { GuardEvents } from './events.js';
import { registerRateLimits } from './rate-limits.js';
import { loadResponseRules } from './response-rules.js';
import { securityHeadersStep } from './security-headers.js';
import { type RuleStatus, registerGuardStatusRoute } from './status-route.js';
import { telemetrySink } from './telemetry.js';
import { Waf } from './waf.js';

export { type Ban, type BanStore, banStoreFor } from './ban-store.js';
export { GuardRuleError } from './response-rules.js';

export async function registerGuard(app: FastifyInstance, platform: Platform): Promise<void> {
  const { config, cache, clock } = platform;
  const internal = internalNetworks(config.internalNetworks);
  const isInternal = (request: FastifyRequest) => isInternalRequest(internal, request);
  const settings = {
    scan_response_body: config.guardScanResponseBody,
    log_suspicious_level: config.guardLogSuspiciousLevel,
    telemetry_enabled: config.guardTelemetryEnabled,
  };
  const storeKind = cache.mode === 'redis' ? ('redis' as const) : ('memory' as const);
  if (!config.guardEnabled) {
    app.log.warn(
      'the request guard is off (GAFFER_GUARD_ENABLED=false): no bans, WAF, rate limits or security headers',
    );
    const off = { enabled: false, store: storeKind, rules: [], settings, bans: null, events: null, clock };
    registerGuardStatusRoute(app, off, isInternal);
    return;
  }

  // Throws GuardRuleError (and so stops the start) when a configured rule cannot be loaded.
  const responseRules = loadResponseRules(config.guardResponseRules, config.guardScanResponseBody);
  const telemetry = telemetrySink({
    enabled: config.guardTelemetryEnabled,
    url: config.guardTelemetryUrl,
    log: app.log,
  });
  const events = new GuardEvents({ log: app.log, level: config.guardLogSuspiciousLevel, telemetry });
  const bans = new Bans({
    store: banStoreFor(cache),
    cache,
    clock,
    events,
    policy: {
      threshold: config.guardBanThreshold,
      windowSeconds: config.guardBanWindowSeconds,
      banSeconds: config.guardBanSeconds,
    },
  });
  const waf = new Waf({ bans, events });
  const behaviour = new BehaviourRules({ rules: responseRules.active, cache, events });
  // Judged once per request (the hooks and the rate limiter ask several times).
  const judge = registerClientJudge(app, internal, config.guardExcludePaths);

  const addSecurityHeaders = await securityHeadersStep();
  const limits = await registerRateLimits(app, { config, cache, judge, events });

  const onRequest: GuardCheck[] = [
    (request, reply, client) => bans.refuseBanned(request, reply, client.ip),
    (request, reply, client) => !client.excluded && waf.refuseUrl(request, reply),
    (request, reply, client) => !client.internal && limits.refuseOverLimit(request, reply),
  ];
  const preValidation: GuardCheck[] = [
    (request, reply, client) => !client.excluded && waf.refuseBody(request, reply),
  ];
  app.addHook('onRequest', (request, reply, done) => {
    addSecurityHeaders(reply);
    runChecks(onRequest, request, reply, judge(request), done);
  });
  app.addHook('preValidation', (request, reply, done) => {
    runChecks(preValidation, request, reply, judge(request), done);
  });
  if (behaviour.readsBodies) {
    app.addHook('onSend', async (request, reply, payload) => {
      const client = judge(request);
      if (!client.internal && !client.excluded) await behaviour.onPayload(request, reply, payload, client.ip);
      return payload;
    });
  }
  // A failed authentication is counted before its 401 leaves, so a client that has seen its last
  // allowed 401 is refused on its next request even when the counter lives in Redis.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 401 || judge(request).internal) return done(null, payload);
    limits.countAuthFailure(request).then(
      () => done(null, payload),
      (error: unknown) => {
        request.log.warn({ err: error }, 'could not count a failed authentication');
        done(null, payload);
      },
    );
  });
  // Most responses have nothing to watch: those finish without a promise.
  app.addHook('onResponse', (request, reply, done) => {
    const client = judge(request);
    if (client.internal || client.excluded || !behaviour.watches(reply.statusCode)) return done();
    behaviour.afterResponse(request, reply, client.ip).then(() => done(), done);
  });
  app.addHook('onClose', async () => telemetry.flush());

  const rules: RuleStatus[] = [
    { name: 'ip-ban', kind: 'ban', active: true, description: banDescription(config) },
    {
      name: 'rate-limit',
      kind: 'rate_limit',
      active: true,
      description: `${config.guardRateLimitPerMinute} requests per minute per client`,
    },
    {
      name: 'rate-limit-sensitive',
      kind: 'rate_limit',
      active: true,
      description: `${config.guardSensitiveRateLimitPerMinute} requests per minute per client on sign-in, branch cleanup and release decisions`,
    },
    {
      name: 'auth-failure-limit',
      kind: 'rate_limit',
      active: true,
      description: `${config.guardAuthFailuresPerMinute} failed authentications per minute per address, then 429 (never a ban)`,
    },
    {
      name: 'waf',
      kind: 'waf',
      active: true,
      description: 'path traversal, SQL injection, XSS, command injection and scanner paths → 403',
    },
    ...responseRules.active.map((rule) => ({
      name: rule.name,
      kind: 'behaviour' as const,
      active: true,
      description: rule.description,
    })),
    ...responseRules.inactive.map((rule) => ({
      name: rule.name,
      kind: 'behaviour' as const,
      active: false,
      description: `${rule.description}; inactive: GAFFER_GUARD_SCAN_RESPONSE_BODY is off`,
    })),
    {
      name: 'security-headers',
      kind: 'headers',
      active: true,
      description: 'helmet: CSP, HSTS, frame and referrer policies',
    },
  ];
  registerGuardStatusRoute(
    app,
    { enabled: true, store: storeKind, rules, settings, bans, events, clock },
    isInternal,
  );
  registerBanRoutes(app, bans.store, clock);
}

function banDescription(config: Platform['config']): string {
  return `${config.guardBanThreshold} blocked requests within ${config.guardBanWindowSeconds} s → banned for ${config.guardBanSeconds} s`;
}
