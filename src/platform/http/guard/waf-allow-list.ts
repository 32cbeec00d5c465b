/**
 * Where the WAF does not read: per route, the request fields in which attack-looking text is
 * legitimate. A task description may quote `<script>`, a finding may show `' OR 1=1` as the bug it
 * reports, a commit message may mention `../../etc/passwd`. Routes not listed here are scanned
 * whole. Field names match at any depth of the JSON body (a finding's `code` inside `findings[]`);
 * `*` leaves the whole body unread. Pure data plus one lookup.
 */

/** Free-text fields of Gaffer's domain bodies: prose, plans, notes, findings, code. */
export const FREE_TEXT_FIELDS = [
  'title',
  'description',
  'body',
  'text',
  'message',
  'note',
  'notes',
  'comment',
  'summary',
  'reason',
  'required_changes',
  'plan',
  'approach',
  'steps',
  'acceptance_criteria',
  'criteria',
  'criterion',
  'technical_considerations',
  'open_questions',
  'risk',
  'risks',
  'mitigation',
  'evidence',
  'findings',
  'code',
  'detail',
  'expected',
  'actual',
  'fix',
  'gaps',
  'why',
  'what_needed',
  'release_notes',
  'changelog_entry',
  'content',
] as const;

export interface AllowEntry {
  /** A route pattern as registered (`/api/tasks/:id`), or a prefix ending in `*`. */
  route: string;
  /** Body fields the WAF does not read (`*`: the whole body). */
  bodyFields: readonly string[];
  /** Query parameters the WAF does not read. */
  queryFields?: readonly string[];
}

export const WAF_ALLOW_LIST: readonly AllowEntry[] = [
  // The agent gateway: every verb input is an agent's prose, plan, findings or code.
  { route: '/api/v1/*', bodyFields: ['*'] },
  { route: '/api/tasks*', bodyFields: FREE_TEXT_FIELDS },
  { route: '/api/a2a/*', bodyFields: FREE_TEXT_FIELDS },
  { route: '/api/notifications*', bodyFields: FREE_TEXT_FIELDS },
  // Commit file lists are judged by the route itself (a precise 422 for `..` or absolute paths).
  { route: '/api/work-sessions*', bodyFields: [...FREE_TEXT_FIELDS, 'files'] },
  // A shell command and repository paths, each validated by the route.
  {
    route: '/api/projects*',
    bodyFields: [...FREE_TEXT_FIELDS, 'dep_update_command', 'dep_update_paths'],
  },
  { route: '/api/products*', bodyFields: FREE_TEXT_FIELDS },
  { route: '/api/agents*', bodyFields: FREE_TEXT_FIELDS },
  { route: '/api/board-programs*', bodyFields: FREE_TEXT_FIELDS },
  { route: '/api/maintenance-pause*', bodyFields: ['reason'] },
  { route: '/api/release/*', bodyFields: ['required_changes', 'reason', 'release_notes'] },
  { route: '/api/settings*', bodyFields: [...FREE_TEXT_FIELDS, 'value'] },
  // The repository path is checked by the route (422 for `..` segments and absolute paths).
  { route: '/api/git/file', bodyFields: [], queryFields: ['path'] },
];

export interface AllowedFields {
  body: ReadonlySet<string>;
  query: ReadonlySet<string>;
}

const NOTHING: AllowedFields = { body: new Set(), query: new Set() };

/** The allowed fields of a matched route pattern (`request.routeOptions.url`); none when unlisted. */
export function allowedFieldsFor(
  routeUrl: string | undefined,
  list: readonly AllowEntry[] = WAF_ALLOW_LIST,
): AllowedFields {
  if (routeUrl === undefined) return NOTHING;
  const body = new Set<string>();
  const query = new Set<string>();
  for (const entry of list) {
    const matches = entry.route.endsWith('*')
      ? routeUrl.startsWith(entry.route.slice(0, -1))
      : routeUrl === entry.route;
    if (!matches) continue;
    for (const field of entry.bodyFields) body.add(field.toLowerCase());
    for (const field of entry.queryFields ?? []) query.add(field.toLowerCase());
  }
  return body.size === 0 && query.size === 0 ? NOTHING : { body, query };
}
