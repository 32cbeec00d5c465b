/**
 * Response-pattern behaviour rules, pure: what they watch and how they are loaded. Every rule is
 * log-only; none bans. Built in: the spec's 401 rule (20 in 300 s from one client), a 404 sweep rule,
 * and a leaked-secret body rule. Operators add rules with GAFFER_GUARD_RESPONSE_RULES. A rule that
 * cannot be loaded is an error that stops the service from starting, never a silent drop (the
 * spec's lesson from body rules that a library quietly discarded).
 */

export interface ResponseRule {
  readonly name: string;
  /** Response status the rule counts; omitted: any status. */
  readonly status?: number;
  /** Pattern a response body must match (needs GAFFER_GUARD_SCAN_RESPONSE_BODY). */
  readonly bodyPattern?: RegExp;
  /** Occurrences from one client within `windowSeconds` at which the rule fires (logs once). */
  readonly threshold: number;
  readonly windowSeconds: number;
  readonly description: string;
}

export class GuardRuleError extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(`guard rule "${rule}" cannot be loaded: ${message}`);
    this.name = 'GuardRuleError';
  }
}

/** Secret shapes that must never leave in a response body. */
export const LEAKED_SECRET_PATTERN =
  /\b(?:ghp_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|sk-ant-[A-Za-z0-9_-]{15,}|sk-[A-Za-z0-9]{32,}|xox[abp]-[A-Za-z0-9-]{20,}|AKIA[0-9A-Z]{16})\b|-----BEGIN (?:RSA |EC |OPENSSH )?PRIVATE KEY-----/;

export const BUILT_IN_RULES: readonly ResponseRule[] = [
  {
    name: 'status-401',
    status: 401,
    threshold: 20,
    windowSeconds: 300,
    description: 'credential probing: 20 failed authentications in 300 s from one client (log only)',
  },
  {
    name: 'status-404',
    status: 404,
    threshold: 30,
    windowSeconds: 300,
    description: 'scanner sweep: 30 unknown paths in 300 s from one client (log only)',
  },
  {
    name: 'leaked-secret',
    bodyPattern: LEAKED_SECRET_PATTERN,
    threshold: 1,
    windowSeconds: 300,
    description: 'a response body carried a secret-shaped string (log only)',
  },
];

export interface LoadedRules {
  /** Rules in force. */
  active: ResponseRule[];
  /** Built-in body rules left off because body scanning is off (reported by /_guard/status). */
  inactive: ResponseRule[];
}

/**
 * The rules in force. Built-in body rules are inactive (and reported so) when body scanning is off;
 * a configured rule that needs the body while scanning is off, or that is malformed, throws.
 */
export function loadResponseRules(configured: string, scanResponseBody: boolean): LoadedRules {
  const active: ResponseRule[] = [];
  const inactive: ResponseRule[] = [];
  for (const rule of BUILT_IN_RULES) {
    if (rule.bodyPattern && !scanResponseBody) inactive.push(rule);
    else active.push(rule);
  }
  for (const rule of parseConfiguredRules(configured)) {
    if (rule.bodyPattern && !scanResponseBody) {
      throw new GuardRuleError(
        rule.name,
        'it reads response bodies but GAFFER_GUARD_SCAN_RESPONSE_BODY is off; turn it on or remove the rule',
      );
    }
    if ([...active, ...inactive].some((other) => other.name === rule.name)) {
      throw new GuardRuleError(rule.name, 'another rule has the same name');
    }
    active.push(rule);
  }
  return { active, inactive };
}

export function parseConfiguredRules(raw: string): ResponseRule[] {
  if (raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new GuardRuleError('GAFFER_GUARD_RESPONSE_RULES', `not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed))
    throw new GuardRuleError('GAFFER_GUARD_RESPONSE_RULES', 'expected a JSON array');
  return parsed.map((item, index) => parseRule(item, index));
}

function parseRule(item: unknown, index: number): ResponseRule {
  const label = `#${index + 1}`;
  if (!item || typeof item !== 'object' || Array.isArray(item))
    throw new GuardRuleError(label, 'expected an object');
  const { name, status, body_pattern, threshold, window_seconds, ...rest } = item as Record<string, unknown>;
  if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(name))
    throw new GuardRuleError(label, '`name` must be a lowercase slug');
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new GuardRuleError(name, `unknown field(s): ${unknown.join(', ')}`);
  if (
    status !== undefined &&
    !(Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 599)
  )
    throw new GuardRuleError(name, '`status` must be an HTTP status code');
  if (body_pattern !== undefined && typeof body_pattern !== 'string')
    throw new GuardRuleError(name, '`body_pattern` must be a regular expression string');
  if (status === undefined && body_pattern === undefined)
    throw new GuardRuleError(name, 'needs `status`, `body_pattern` or both');
  if (!Number.isInteger(threshold) || (threshold as number) < 1)
    throw new GuardRuleError(name, '`threshold` must be a whole number of at least 1');
  if (
    !Number.isInteger(window_seconds) ||
    (window_seconds as number) < 1 ||
    (window_seconds as number) > 86_400
  )
    throw new GuardRuleError(name, '`window_seconds` must be between 1 and 86400');
  let bodyPattern: RegExp | undefined;
  if (typeof body_pattern === 'string') {
    try {
      bodyPattern = new RegExp(body_pattern);
    } catch (error) {
      throw new GuardRuleError(
        name,
        `\`body_pattern\` is not a valid regular expression (${(error as Error).message})`,
      );
    }
  }
  return {
    name,
    ...(status === undefined ? {} : { status: status as number }),
    ...(bodyPattern ? { bodyPattern } : {}),
    threshold: threshold as number,
    windowSeconds: window_seconds as number,
    description: 'configured in GAFFER_GUARD_RESPONSE_RULES (log only)',
  };
}

/** Whether a finished response is an occurrence of `rule` (body given only when scanning is on). */
export function responseMatches(rule: ResponseRule, statusCode: number, body: string | undefined): boolean {
  if (rule.status !== undefined && rule.status !== statusCode) return false;
  if (rule.bodyPattern) return body !== undefined && rule.bodyPattern.test(body);
  return true;
}
