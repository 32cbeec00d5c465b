/**
 * Every GAFFER_* variable, declared once. The declaration drives parsing, validation and the
 * configuration table of docs/configuration.md (`gaffer config --markdown`), so the three never drift apart.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { AllowEntryError, parseAllowEntry } from './platform/process/network-allow.js';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

interface Setting<T> {
  env: string;
  /** Shown in the configuration table (docs/configuration.md); `undefined` defaults are shown as "unset". */
  defaultValue: T;
  description: string;
  parse(raw: string, env: string): T;
}

function int(
  env: string,
  defaultValue: number,
  min: number,
  max: number,
  description: string,
): Setting<number> {
  return {
    env,
    defaultValue,
    description,
    parse(raw) {
      if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(env, `expected a whole number, got "${raw}"`);
      const value = Number(raw);
      if (value < min || value > max)
        throw new ConfigError(env, `must be between ${min} and ${max}, got ${value}`);
      return value;
    },
  };
}

/** A positive decimal number, or unset (the caller's default, which depends on the machine). */
function optionalDecimal(
  env: string,
  min: number,
  max: number,
  description: string,
): Setting<number | undefined> {
  return {
    env,
    defaultValue: undefined,
    description,
    parse(raw) {
      if (raw.trim() === '') return undefined;
      if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw new ConfigError(env, `expected a number, got "${raw}"`);
      const value = Number(raw);
      if (value < min || value > max)
        throw new ConfigError(env, `must be between ${min} and ${max}, got ${value}`);
      return value;
    },
  };
}

function bool(env: string, defaultValue: boolean, description: string): Setting<boolean> {
  return {
    env,
    defaultValue,
    description,
    parse(raw) {
      const value = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(value)) return true;
      if (['0', 'false', 'no', 'off'].includes(value)) return false;
      throw new ConfigError(env, `expected true or false, got "${raw}"`);
    },
  };
}

function str(env: string, defaultValue: string, description: string, check?: (v: string) => string | null) {
  return optionalStr(env, description, check, defaultValue) as Setting<string>;
}

function optionalStr(
  env: string,
  description: string,
  check?: (v: string) => string | null,
  defaultValue?: string,
): Setting<string | undefined> {
  return {
    env,
    defaultValue,
    description,
    parse(raw) {
      const value = raw.trim();
      if (value === '') return defaultValue;
      const problem = check?.(value);
      if (problem) throw new ConfigError(env, problem);
      return value;
    },
  };
}

function oneOf<T extends string>(
  env: string,
  defaultValue: T,
  values: readonly T[],
  description: string,
): Setting<T> {
  return {
    env,
    defaultValue,
    description: `${description} One of: ${values.join(', ')}.`,
    parse(raw) {
      const value = raw.trim().toLowerCase() as T;
      if (!values.includes(value))
        throw new ConfigError(env, `expected one of ${values.join(', ')}, got "${raw}"`);
      return value;
    },
  };
}

function urlWith(protocols: string[]) {
  return (value: string) => {
    try {
      const url = new URL(value);
      return protocols.includes(url.protocol) ? null : `expected a ${protocols.join(' or ')} URL`;
    } catch {
      return 'not a valid URL';
    }
  };
}

/** A CIDR block ("10.0.0.0/8", "::1/128") or a bare address. */
export function isCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d+$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * A comma-separated list setting: items trimmed, empty ones dropped, each checked (`refuse` says
 * why one is not accepted, or null) and then normalised.
 */
function commaList(
  env: string,
  defaultValue: string[],
  description: string,
  refuse: (item: string) => string | null,
  normalise: (item: string) => string = (item) => item,
): Setting<string[]> {
  return {
    env,
    defaultValue,
    description,
    parse(raw) {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const item of items) {
        const reason = refuse(item);
        if (reason) throw new ConfigError(env, `"${item}" ${reason}`);
      }
      return items.map(normalise);
    },
  };
}

function cidrList(env: string, defaultValue: string[], description: string): Setting<string[]> {
  return commaList(env, defaultValue, `${description} Comma-separated addresses or CIDR blocks.`, (item) =>
    isCidr(item) ? null : 'is not an IP address or CIDR block',
  );
}

/** Comma-separated absolute file-system paths. */
function fsPathList(env: string, description: string): Setting<string[]> {
  return commaList(
    env,
    [],
    `${description} Comma-separated absolute paths.`,
    (item) => (item.startsWith('/') && item !== '/' ? null : 'is not an absolute path below "/"'),
    (item) => resolve(item),
  );
}

/** Comma-separated URL path prefixes, each starting with "/". */
function pathList(env: string, defaultValue: string[], description: string): Setting<string[]> {
  return commaList(env, defaultValue, `${description} Comma-separated path prefixes.`, (item) =>
    /^\/[^\s?#]*$/.test(item) ? null : 'is not a path starting with "/"',
  );
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const settings = {
  // ── Server ──────────────────────────────────────────────────────────────────────────────
  host: str(
    'GAFFER_HOST',
    '127.0.0.1',
    'Address the HTTP server binds. Streams are trusted-network-only, so keep it on loopback unless a reverse proxy fronts it.',
  ),
  port: int('GAFFER_PORT', 8420, 0, 65535, 'TCP port of the HTTP server (0 picks a free port).'),
  publicUrl: optionalStr(
    'GAFFER_PUBLIC_URL',
    'Base URL people use to reach Gaffer; the printed login URL starts with it. Defaults to http://HOST:PORT.',
    urlWith(['http:', 'https:']),
  ),
  dataDir: str(
    'GAFFER_DATA_DIR',
    './data',
    'Directory for the embedded database, the generated auth secret and workspaces.',
  ),
  logLevel: oneOf('GAFFER_LOG_LEVEL', 'info', LOG_LEVELS, 'Log verbosity.'),
  logFormat: oneOf(
    'GAFFER_LOG_FORMAT',
    'auto',
    ['auto', 'json', 'pretty'] as const,
    'Log line format: `auto` pretty-prints when stdout is a terminal and writes one JSON object per line otherwise.',
  ),
  bodyLimitBytes: int(
    'GAFFER_BODY_LIMIT_BYTES',
    1_048_576,
    1024,
    104_857_600,
    'Largest accepted request body; larger bodies get 413.',
  ),
  // ── Storage ─────────────────────────────────────────────────────────────────────────────
  databaseUrl: optionalStr(
    'GAFFER_DATABASE_URL',
    'PostgreSQL connection URL. Unset: embedded PGlite under GAFFER_DATA_DIR.',
    urlWith(['postgres:', 'postgresql:']),
  ),
  databasePoolSize: int('GAFFER_DATABASE_POOL_SIZE', 20, 1, 500, 'Connections in the PostgreSQL pool.'),
  redisUrl: optionalStr(
    'GAFFER_REDIS_URL',
    'Redis URL for the cache store, locks and cross-replica fan-out. Unset: an in-process store (single replica only).',
    urlWith(['redis:', 'rediss:']),
  ),
  redisKeyPrefix: str(
    'GAFFER_REDIS_KEY_PREFIX',
    '',
    'Prefix of every Redis key and pub/sub channel, so several Gaffer deployments can share one Redis (the replicas of one deployment use the same prefix).',
    (v) => (/^[\w:.-]{1,64}$/.test(v) ? null : 'letters, digits, _ : . - only (at most 64)'),
  ),
  readyTimeoutMs: int('GAFFER_READY_TIMEOUT_MS', 2000, 50, 60_000, 'Per-check timeout of the /ready probe.'),
  loopLeaseSeconds: int(
    'GAFFER_LOOP_LEASE_SECONDS',
    30,
    3,
    600,
    'Lease of a background loop (engines, sweeps), renewed every third of it while the holder lives: when a replica dies, another takes its loops over within this time.',
  ),
  backupIntervalMinutes: int(
    'GAFFER_BACKUP_INTERVAL_MINUTES',
    60,
    0,
    10_080,
    "Minutes between scheduled backups of the whole store (`gaffer backup`'s file, checked after writing); 0 turns them off. On by default so a company is protected from its first hour.",
  ),
  backupRetentionDays: int(
    'GAFFER_BACKUP_RETENTION_DAYS',
    30,
    1,
    3650,
    'Scheduled backups older than this are deleted after each new one is written and checked.',
  ),
  backupDir: optionalStr(
    'GAFFER_BACKUP_DIR',
    'Directory of the scheduled backups. Unset: GAFFER_DATA_DIR/backups. With several replicas, a directory they share (one replica takes each backup).',
  ),
  // ── Auth ────────────────────────────────────────────────────────────────────────────────
  authSecret: optionalStr(
    'GAFFER_AUTH_SECRET',
    'HMAC secret for agent tokens (at least 32 characters). Unset: generated on first start into GAFFER_DATA_DIR/auth-secret (mode 0600).',
    (v) => (v.length < 32 ? 'must be at least 32 characters' : null),
  ),
  secureMode: bool(
    'GAFFER_SECURE_MODE',
    true,
    'Require a valid X-Agent-Token (or panel session) on every /api request. false is a development switch and is logged loudly.',
  ),
  agentTokenTtlSeconds: int(
    'GAFFER_AGENT_TOKEN_TTL_SECONDS',
    604_800,
    60,
    31_536_000,
    'Lifetime of the expiring tokens minted for spawned agents.',
  ),
  sessionTtlSeconds: int(
    'GAFFER_SESSION_TTL_SECONDS',
    43_200,
    60,
    2_592_000,
    'Lifetime of a panel session cookie.',
  ),
  internalNetworks: cidrList(
    'GAFFER_INTERNAL_NETWORKS',
    [],
    'Networks besides loopback that are internal: they may read /_guard/status and /metrics and skip rate limits and behavioural rules (never the WAF or a ban). A request relayed with X-Forwarded-For is never internal.',
  ),
  trustedProxies: cidrList(
    'GAFFER_TRUSTED_PROXIES',
    ['127.0.0.1', '::1'],
    'Peers whose X-Forwarded-For is believed when resolving the client address.',
  ),
  // ── Engines (spec "Configuration constants") ────────────────────────────────────────────
  ciWatchIntervalSeconds: int(
    'GAFFER_CI_WATCH_INTERVAL_SECONDS',
    1800,
    1,
    31_536_000,
    'Seconds between CI-watch passes.',
  ),
  ciWatchMaxPerCycle: int(
    'GAFFER_CI_WATCH_MAX_PER_CYCLE',
    1,
    0,
    10_000,
    'Most CI-watch fix tasks opened in one cycle.',
  ),
  ciWatchMaxOpenTasks: int(
    'GAFFER_CI_WATCH_MAX_OPEN_TASKS',
    3,
    0,
    10_000,
    'Rolling cap of open CI-watch fix tasks per repository.',
  ),
  ciWatchConcurrency: int(
    'GAFFER_CI_WATCH_CONCURRENCY',
    16,
    1,
    256,
    'CI conclusions a CI-watch pass reads from the code-hosting providers at once.',
  ),
  depUpdateIntervalSeconds: int(
    'GAFFER_DEP_UPDATE_INTERVAL_SECONDS',
    604_800,
    1,
    31_536_000,
    'Seconds between dependency-update passes (weekly).',
  ),
  depUpdateMaxPerCycle: int(
    'GAFFER_DEP_UPDATE_MAX_PER_CYCLE',
    1,
    0,
    10_000,
    'Most update-dependencies tasks opened in one cycle.',
  ),
  depUpdateMaxOpenTasks: int(
    'GAFFER_DEP_UPDATE_MAX_OPEN_TASKS',
    3,
    0,
    10_000,
    'Rolling cap of open update-dependencies tasks per repository.',
  ),
  depUpdateTimeoutSeconds: int(
    'GAFFER_DEP_UPDATE_TIMEOUT_SECONDS',
    600,
    1,
    86_400,
    "Longest a project's dep_update_command may run in its throwaway clone before it is killed.",
  ),
  releaseManagerEnabled: bool(
    'GAFFER_RELEASE_MANAGER_ENABLED',
    false,
    'Master switch of the release manager; when on it only proposes.',
  ),
  releaseMinCommits: int(
    'GAFFER_RELEASE_MIN_COMMITS',
    8,
    1,
    100_000,
    'Unreleased commits needed before proposing (one feat or security commit qualifies alone).',
  ),
  releaseManagerIntervalSeconds: int(
    'GAFFER_RELEASE_MANAGER_INTERVAL_SECONDS',
    3600,
    1,
    31_536_000,
    'Seconds between release readiness passes.',
  ),
  releaseGitName: str(
    'GAFFER_RELEASE_GIT_NAME',
    'Gaffer Release Manager',
    'Author and committer name of the release commit.',
  ),
  releaseGitEmail: str(
    'GAFFER_RELEASE_GIT_EMAIL',
    'release-manager@gaffer.localhost',
    'Author and committer email of the release commit.',
    (v) => (/^[^\s@]+@[^\s@]+$/.test(v) ? null : 'not an email address'),
  ),
  releaseSignCommits: bool('GAFFER_RELEASE_SIGN_COMMITS', false, 'GPG-sign the release commit.'),
  releaseSigningKey: optionalStr(
    'GAFFER_RELEASE_SIGNING_KEY',
    "GPG key id that signs the release commit (empty: git's user.signingkey or the default key).",
  ),
  releaseProject: str(
    'GAFFER_RELEASE_PROJECT',
    'gaffer',
    "Slug of the project the release manager releases: the service's own repository.",
  ),
  releaseCiWorkflow: str(
    'GAFFER_RELEASE_CI_WORKFLOW',
    'ci.yml',
    'Workflow file whose runs are the release quality gate (head rung and release commit).',
  ),
  releaseAllowMajorFromZero: bool(
    'GAFFER_RELEASE_ALLOW_MAJOR_FROM_ZERO',
    false,
    'Let a breaking change on 0.x bump to 1.0.0; off, it bumps the minor.',
  ),
  releaseCiPollSeconds: int(
    'GAFFER_RELEASE_CI_POLL_SECONDS',
    30,
    1,
    3600,
    "Seconds between polls of the release commit's CI while the executor waits for it.",
  ),
  releaseCiTimeoutSeconds: int(
    'GAFFER_RELEASE_CI_TIMEOUT_SECONDS',
    3600,
    1,
    86_400,
    "Longest the executor waits for the release commit's CI to turn green.",
  ),
  // ── Request guard ───────────────────────────────────────────────────────────────────────
  guardEnabled: bool(
    'GAFFER_GUARD_ENABLED',
    true,
    'Master switch of the request guard (bans, rate limits, WAF, behaviour rules, security headers). /_guard/status answers either way.',
  ),
  guardRateLimitPerMinute: int(
    'GAFFER_GUARD_RATE_LIMIT_PER_MINUTE',
    300,
    1,
    1_000_000,
    'General rate limit: requests per minute per client (the authenticated identity, else the client address). Internal callers are exempt.',
  ),
  guardSensitiveRateLimitPerMinute: int(
    'GAFFER_GUARD_SENSITIVE_RATE_LIMIT_PER_MINUTE',
    10,
    1,
    1_000_000,
    'Tighter limit per client on auth-sensitive and expensive routes: panel sign-in, branch cleanup, release approve and reject.',
  ),
  guardAuthFailuresPerMinute: int(
    'GAFFER_GUARD_AUTH_FAILURES_PER_MINUTE',
    30,
    1,
    1_000_000,
    'Failed token or session checks (401) per minute per client address before further requests get 429. Never a ban.',
  ),
  guardBanThreshold: int(
    'GAFFER_GUARD_BAN_THRESHOLD',
    5,
    1,
    1_000_000,
    'WAF hits and scanner probes from one address within GAFFER_GUARD_BAN_WINDOW_SECONDS that ban it.',
  ),
  guardBanWindowSeconds: int(
    'GAFFER_GUARD_BAN_WINDOW_SECONDS',
    300,
    1,
    86_400,
    'Window in which WAF hits are counted toward a ban.',
  ),
  guardBanSeconds: int(
    'GAFFER_GUARD_BAN_SECONDS',
    3600,
    1,
    2_592_000,
    'How long a ban lasts (the CEO can lift it earlier: DELETE /api/guard/bans/{address}).',
  ),
  guardExcludePaths: pathList(
    'GAFFER_GUARD_EXCLUDE_PATHS',
    [
      '/health',
      '/ready',
      '/metrics',
      '/_guard/status',
      '/docs',
      '/ws',
      '/favicon.ico',
      '/.well-known',
      '/assets',
    ],
    'Paths that skip the WAF and behavioural tracking; bans and rate limits still apply on them.',
  ),
  guardScanResponseBody: bool(
    'GAFFER_GUARD_SCAN_RESPONSE_BODY',
    false,
    'Let response-pattern guard rules read response bodies, not only status codes.',
  ),
  guardResponseRules: str(
    'GAFFER_GUARD_RESPONSE_RULES',
    '',
    'Extra log-only response-pattern rules, a JSON array of `{name, status?, body_pattern?, threshold, window_seconds}`. A rule that cannot be loaded (bad pattern, or a body rule while GAFFER_GUARD_SCAN_RESPONSE_BODY is off) stops the service from starting.',
  ),
  guardLogSuspiciousLevel: oneOf(
    'GAFFER_GUARD_LOG_SUSPICIOUS_LEVEL',
    'warn',
    LOG_LEVELS,
    'Log level of suspicious-activity records (behaviour rules, blocks, bans); `silent` mutes them.',
  ),
  guardTelemetryEnabled: bool(
    'GAFFER_GUARD_TELEMETRY_ENABLED',
    false,
    'Emit guard telemetry records (never with HMAC or session headers).',
  ),
  guardTelemetryUrl: optionalStr(
    'GAFFER_GUARD_TELEMETRY_URL',
    'Where telemetry records are POSTed as JSON when telemetry is on. Unset: they are written to the log.',
    urlWith(['http:', 'https:']),
  ),
  // ── Live streams and notifications ──────────────────────────────────────────────────────
  wsRequireToken: bool(
    'GAFFER_WS_REQUIRE_TOKEN',
    false,
    "Require a verified token (query `token` or Sec-WebSocket-Protocol) on every WebSocket, or the panel's signed-in session (its cookie); a presented token is always verified.",
  ),
  wsIdleTimeoutSeconds: int(
    'GAFFER_WS_IDLE_TIMEOUT_SECONDS',
    90,
    5,
    86_400,
    'A socket that sends nothing (not even a ping) for this long is closed.',
  ),
  wsSendQueueLimit: int(
    'GAFFER_WS_SEND_QUEUE_LIMIT',
    256,
    1,
    100_000,
    'Frames a slow socket may have waiting before it is dropped.',
  ),
  notificationAckTtlHours: int(
    'GAFFER_NOTIFICATION_ACK_TTL_HOURS',
    48,
    0,
    8760,
    'Hours an ack-required notification waits before it is re-escalated (0 = never).',
  ),
  notificationReescalationBaseSeconds: int(
    'GAFFER_NOTIFICATION_REESCALATION_BASE_SECONDS',
    3600,
    1,
    86_400,
    'Backoff base between re-escalations of an unacked notification (doubling, capped at 24 h).',
  ),
  liveChatIdleSeconds: int(
    'GAFFER_LIVE_CHAT_IDLE_SECONDS',
    1800,
    60,
    86_400,
    'Seconds a live chat (intake interviewer, secretary) may go without a turn before it is ended.',
  ),
  notificationSweepIntervalSeconds: int(
    'GAFFER_NOTIFICATION_SWEEP_INTERVAL_SECONDS',
    60,
    1,
    3600,
    'Seconds between passes that re-escalate unacked notifications and resolve those whose task ended.',
  ),
  notificationMaxReescalations: int(
    'GAFFER_NOTIFICATION_MAX_REESCALATIONS',
    5,
    0,
    100,
    'Re-escalations of one unacked notification before it is left as permanently unacked.',
  ),
  // ── Dispatcher ──────────────────────────────────────────────────────────────────────────
  dispatchEnabled: bool(
    'GAFFER_DISPATCH_ENABLED',
    true,
    'Run the dispatcher (routes ready tasks to idle agents and spawns them). The stale-claim reaper and the budget sweep run regardless.',
  ),
  dispatchIntervalSeconds: int(
    'GAFFER_DISPATCH_INTERVAL_SECONDS',
    30,
    1,
    3600,
    'Seconds between dispatcher passes; it also wakes on every task change.',
  ),
  staleClaimSeconds: int(
    'GAFFER_STALE_CLAIM_SECONDS',
    600,
    60,
    86_400,
    'A claim without a heartbeat for this long is stale: the reaper releases it to pending (owner kept).',
  ),
  dispatchRespawnLimit: int(
    'GAFFER_DISPATCH_RESPAWN_LIMIT',
    3,
    1,
    100,
    'Spawns of one task without progress after which it is marked stalled and the CEO notified.',
  ),
  agentRuntime: oneOf(
    'GAFFER_AGENT_RUNTIME',
    'process',
    ['process', 'scripted'] as const,
    'How the dispatcher runs agents: `process` (an agent CLI) or `scripted` (built-in simulated agents).',
  ),
  agentProvider: str(
    'GAFFER_AGENT_PROVIDER',
    'claude',
    'Agent CLI the process runtime starts: `claude`, `codex`, `gemini` or `custom` (GAFFER_AGENT_COMMAND_CUSTOM).',
  ),
  // ── Retrieval (optimal) ─────────────────────────────────────────────────────────────────
  optimalIndexIntervalSeconds: int(
    'GAFFER_OPTIMAL_INDEX_INTERVAL_SECONDS',
    60,
    1,
    86_400,
    'Seconds between passes of the retrieval indexer (it pulls what changed in docs, journals, tasks and findings).',
  ),
  optimalRagTimeoutSeconds: int(
    'GAFFER_OPTIMAL_RAG_TIMEOUT_SECONDS',
    60,
    1,
    600,
    'Longest wait for the model of a retrieval-augmented answer (POST /api/optimal/rag/query) before a 504 rag_timeout.',
  ),
  // ── Agent runtime ───────────────────────────────────────────────────────────────────────
  killGraceSeconds: int(
    'GAFFER_KILL_GRACE_SECONDS',
    10,
    0,
    600,
    'Seconds between SIGTERM and SIGKILL when an agent process is stopped gracefully (also a kill pause of dispatch).',
  ),
  agentCommandCustom: optionalStr(
    'GAFFER_AGENT_COMMAND_CUSTOM',
    'Command template of the `custom` agent provider, e.g. `my-agent --prompt-file {prompt_file} --mcp {mcp_config}` ' +
      '(placeholders {prompt}, {prompt_file}, {mcp_config}, {model}, {workspace}; split with shell-word rules, run without a shell).',
  ),
  agentSandbox: oneOf(
    'GAFFER_AGENT_SANDBOX',
    'on',
    ['on', 'off'] as const,
    "Run every agent CLI and dependency-update command in a bubblewrap sandbox (needs `bwrap`). `off` lets agents read the server's secrets and data; /health, the startup line and the panel say so.",
  ),
  agentSandboxRead: fsPathList(
    'GAFFER_AGENT_SANDBOX_READ',
    "Directories (or files) every sandboxed agent may also read. A CLI installed outside /usr needs none: each run binds the CLI's own install (followed from its name on the PATH) by itself; only one that lies directly in the home, the data directory or a folder holding one is refused, naming the path to add here.",
  ),
  agentNetworkAllow: commaList(
    'GAFFER_AGENT_NETWORK_ALLOW',
    [],
    'Where every sandboxed agent (and dependency-update command) may reach besides its model and its gateway: comma-separated host names, addresses (IPv6 in brackets), each optionally with `:port`, or `*.` and a domain — e.g. `registry.npmjs.org,*.pythonhosted.org:443`. Projects add their own on the Budget & Ops card. A name that resolves to a loopback, private, link-local or host address is still refused unless that address is listed.',
    (item) => {
      try {
        parseAllowEntry(item);
        return null;
      } catch (error) {
        if (error instanceof AllowEntryError) return `is not an allowlist entry: ${error.why}`;
        throw error;
      }
    },
  ),
  agentMaxProcesses: int(
    'GAFFER_AGENT_MAX_PROCESSES',
    512,
    16,
    1_000_000,
    'Processes (and threads: the kernel counts both) one agent run or dependency-update command may have alive at once; a fork past it stops the run, recorded failed with the limit.',
  ),
  agentMemoryMb: int(
    'GAFFER_AGENT_MEMORY_MB',
    4096,
    64,
    16_777_216,
    'Memory (MB, no swap beyond it) one agent run or dependency-update command may use; past it the run is stopped and recorded failed with the limit.',
  ),
  agentCpuCores: optionalDecimal(
    'GAFFER_AGENT_CPU_CORES',
    0.01,
    4096,
    'CPU share of one agent run, in cores (1.5 = one and a half). Unset: all cores but one, so the server always keeps one.',
  ),
  agentMaxRunSeconds: int(
    'GAFFER_AGENT_MAX_RUN_SECONDS',
    3600,
    10,
    604_800,
    'Wall time of one agent run: past it the run is stopped (SIGTERM, then SIGKILL after GAFFER_KILL_GRACE_SECONDS) and recorded failed with the limit. Limits need cgroups (v2 delegated, or v1 as root); elsewhere rlimits apply, best effort, and /health says so.',
  ),
  agentPassEnv: str(
    'GAFFER_AGENT_PASS_ENV',
    '',
    'Comma-separated names of server environment variables handed to every agent process (its API keys, say). GAFFER_* names are never passed.',
    (v) =>
      v.split(',').every((name) => name.trim() === '' || /^[A-Za-z_][A-Za-z0-9_]*$/.test(name.trim()))
        ? null
        : 'expected comma-separated variable names',
  ),
  transcriptMaxBytes: int(
    'GAFFER_TRANSCRIPT_MAX_BYTES',
    1_048_576,
    1024,
    1_073_741_824,
    'Output bytes of one agent run kept in its transcript (/api/stream); the live stream is never cut.',
  ),
  researchFetchAllowLoopback: bool(
    'GAFFER_RESEARCH_FETCH_ALLOW_LOOPBACK',
    false,
    'Lets /api/research/fetch reach loopback addresses (tests only; private and link-local addresses stay refused).',
  ),
  telegramApiUrl: str(
    'GAFFER_TELEGRAM_API_URL',
    'https://api.telegram.org',
    'Base URL of the Telegram Bot API (the chat-notification relay).',
    (v) => (/^https?:\/\//.test(v) ? null : 'expected an http(s) URL'),
  ),
  telegramTimeoutMs: int(
    'GAFFER_TELEGRAM_TIMEOUT_MS',
    10_000,
    100,
    120_000,
    'Timeout of one Telegram send; a slow or failing Bot API never fails the producer.',
  ),
};

type Settings = typeof settings;
export type Config = { readonly [K in keyof Settings]: Settings[K]['defaultValue'] };

/**
 * The environment Gaffer hands a spawned agent (read by `gaffer agent-tools`, never by the server):
 * tolerated here so that an agent's shell that runs `gaffer start` is not refused.
 */
export const AGENT_ENVIRONMENT = [
  'GAFFER_GATEWAY_URL',
  'GAFFER_AGENT_ID',
  'GAFFER_AGENT_SLUG',
  'GAFFER_AGENT_ROLE',
  'GAFFER_AGENT_TEAM',
  'GAFFER_AGENT_TOKEN',
  'GAFFER_TASK_ID',
  'GAFFER_RUN_ID',
] as const;

/** Parses the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const known = new Set<string>([...Object.values(settings).map((s) => s.env), ...AGENT_ENVIRONMENT]);
  // GAFFER_TEST_* and GAFFER_BENCH_* belong to the test suite and the benchmarks, not the service.
  const unknown = Object.keys(env).find(
    (name) => name.startsWith('GAFFER_') && !known.has(name) && !/^GAFFER_(TEST|BENCH)_/.test(name),
  );
  if (unknown) throw new ConfigError(unknown, 'unknown variable (see the configuration table in the README)');

  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(settings) as [string, Setting<unknown>][]) {
    const raw = env[setting.env];
    out[key] = raw === undefined ? setting.defaultValue : setting.parse(raw, setting.env);
  }
  out.dataDir = resolve(out.dataDir as string);
  return out as Config;
}

/** Test and tool helper: defaults with overrides, validated the same way. */
export function configWith(overrides: Partial<Config>): Config {
  return { ...loadConfig({}), ...overrides };
}

/** The README's configuration table, generated from the declarations above. */
export function configMarkdownTable(): string {
  const rows = Object.values(settings).map((s: Setting<unknown>) => {
    const d = s.defaultValue;
    const shown =
      d === undefined ? 'unset' : Array.isArray(d) ? (d.length ? d.join(',') : 'empty') : String(d);
    return `| \`${s.env}\` | \`${shown}\` | ${s.description} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
