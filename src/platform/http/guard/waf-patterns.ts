/**
 * The WAF's pattern rules, pure: well-known attack payloads in a URL path, a query value or a JSON
 * string. Each rule has a category so that logs and telemetry say what kind of probe it was; the
 * response never does (blocked requests get one generic answer).
 */

export type WafCategory = 'path_traversal' | 'sql_injection' | 'xss' | 'command_injection' | 'scanner_path';

export interface WafHit {
  category: WafCategory;
  /** Where the payload was found: `path`, `query.<name>` or `body.<field path>`. */
  where: string;
}

interface PatternRule {
  category: WafCategory;
  pattern: RegExp;
}

/** Payloads that are attacks wherever they appear (path, query or body value). */
const CONTENT_RULES: readonly PatternRule[] = [
  // Two or more parent steps, or an encoded parent step, or the classic targets.
  { category: 'path_traversal', pattern: /(?:\.\.[\\/]){2,}/ },
  { category: 'path_traversal', pattern: /(?:%2e|\.)(?:%2e|\.)(?:%2f|%5c)|%2e%2e|%252e/i },
  { category: 'path_traversal', pattern: /(?:^|[\\/])etc[\\/](?:passwd|shadow|group)\b/i },
  { category: 'path_traversal', pattern: /\bwindows[\\/]+(?:system32|win\.ini)\b/i },
  // A NUL is not flagged here: validation refuses it everywhere with a 422 naming the field.
  { category: 'sql_injection', pattern: /\bunion\b[\s/*+]+(?:all[\s/*+]+)?select\b/i },
  { category: 'sql_injection', pattern: /['"]\s*(?:or|and)\s+['"]?\w+['"]?\s*=\s*['"]?\w+/i },
  { category: 'sql_injection', pattern: /;\s*(?:drop|truncate|alter)\s+(?:table|database|schema)\b/i },
  { category: 'sql_injection', pattern: /\b(?:pg_sleep|sleep|benchmark)\s*\(\s*\d/i },
  { category: 'sql_injection', pattern: /\bwaitfor\s+delay\b|\bxp_cmdshell\b|\binformation_schema\b/i },
  { category: 'xss', pattern: /<\s*script\b|<\s*\/\s*script\s*>/i },
  { category: 'xss', pattern: /<\s*(?:iframe|object|embed|svg|img|body|details)\b[^>]*\bon[a-z]+\s*=/i },
  { category: 'xss', pattern: /<\s*iframe\b|\bjavascript\s*:\s*\S|\bdocument\.cookie\b/i },
  { category: 'command_injection', pattern: /\$\(\s*(?:id|whoami|uname|cat|curl|wget|sh|bash|nc)\b/ },
  { category: 'command_injection', pattern: /`\s*(?:id|whoami|uname|cat|curl|wget|sh|bash|nc)\b[^`]*`/ },
  {
    category: 'command_injection',
    pattern: /[;|&]\s*(?:cat|curl|wget|nc|bash|sh)\s+(?:\/etc\/|https?:\/\/|-[ce]\s)/i,
  },
];

/** Paths that only scanners ask for: dotfiles with secrets, other stacks' admin pages. */
const SCANNER_PATH_RULES: readonly RegExp[] = [
  /(?:^|\/)\.(?:env|git|svn|hg|aws|ssh|htaccess|htpasswd|ds_store|npmrc|docker)(?:[/.]|$)/i,
  /(?:^|\/)(?:wp-admin|wp-login\.php|wp-content|wp-includes|xmlrpc\.php|phpmyadmin|pma|cgi-bin|boaform|hnap1|actuator|server-status|solr|owa|autodiscover)(?:\/|$)/i,
  /(?:^|\/)vendor\/phpunit\b|(?:^|\/)manager\/html\b|(?:^|\/)console\/login\b/i,
  /\.(?:php\d?|asp|aspx|jsp|cgi|pl)$/i,
];

/** A path segment that steps up ("..", also encoded): no Gaffer route has one. */
const PARENT_SEGMENT = /(?:^|\/|%2f)(?:\.|%2e){2}(?:\/|%2f|%5c|\\|$)/i;

/** The category of the first content rule `text` matches, or null. */
export function matchContent(text: string): WafCategory | null {
  for (const rule of CONTENT_RULES) if (rule.pattern.test(text)) return rule.category;
  return null;
}

/**
 * Judges a URL path, raw (as sent) and decoded: scanner paths, parent segments, and any content
 * payload carried in the path itself.
 */
export function matchPath(rawPath: string): WafCategory | null {
  // Without an escape the decoded form is the raw one: judge it once.
  const decoded = rawPath.includes('%') ? safeDecode(rawPath) : rawPath;
  const forms = decoded === rawPath ? [rawPath] : [rawPath, decoded];
  for (const form of forms) {
    if (PARENT_SEGMENT.test(form)) return 'path_traversal';
    if (SCANNER_PATH_RULES.some((rule) => rule.test(form))) return 'scanner_path';
  }
  return matchContent(rawPath) ?? (decoded === rawPath ? null : matchContent(decoded));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
