/**
 * Every operation of the OpenAPI document gets a unique, stable, conventional `operationId` — what
 * generated clients name their methods by — derived from its method and path unless its schema
 * names one: `GET /api/tasks` → `listTasks`, `POST /api/tasks` → `createTask`, `GET /api/tasks/{id}`
 * → `getTask`, `PATCH …/{id}` → `updateTask`, `POST /api/tasks/{id}/approve-and-merge` →
 * `approveAndMergeTask`, `GET /api/usage/summary` → `getUsageSummary`, `POST
 * /api/v1/flow/cell_pm/give_me_work` → `cellPmGiveMeWork`. The few the rules name badly are named
 * in NAMED. The id changes only when the path does.
 */

/** Operations named by hand, where the rules would name them badly. */
const NAMED: Readonly<Record<string, string>> = {
  'POST /api/auth/session': 'createAuthSession',
  'POST /api/v1/do': 'callDoTool',
  'POST /api/maintenance-pause/{scope}': 'startMaintenancePause',
  'GET /api/stream/{agent_id}': 'listAgentRuns',
  'GET /api/stream/{agent_id}/runs/{run_id}': 'getAgentRun',
};

const words = (segment: string): string[] => segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
const pascal = (segments: readonly string[]) => segments.flatMap(words).map(capital).join('');
const camel = (segments: readonly string[]) => {
  const name = pascal(segments);
  return name.charAt(0).toLowerCase() + name.slice(1);
};

/** Nouns that end in `s` but name one thing (a set of credentials, the charter's goals, a diff). */
const UNCOUNTABLE = new Set(['credentials', 'metrics', 'company-goals', 'changes', 'status']);

/** `tasks` → `task`, `entries` → `entry`, `pitches` → `pitch`; anything else stays as it is. */
function singular(word: string): string {
  if (UNCOUNTABLE.has(word)) return word;
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(word) || !word.endsWith('s')) return word;
  return word.slice(0, -1);
}

const isParam = (segment: string) => segment.startsWith(':') || segment.startsWith('{');
const isPlural = (segment: string) => singular(segment) !== segment;

export function operationIdOf(method: string, url: string): string {
  const named = NAMED[`${method.toUpperCase()} ${url.replace(/:(\w+)/g, '{$1}')}`];
  return named ?? derivedId(method, url);
}

function derivedId(method: string, url: string): string {
  const segments = url.split('/').filter((s) => s && s !== 'api' && !/^v\d+$/.test(s) && s !== '*');
  // Each static segment, singular when an id follows it (`tasks/{id}` is one task).
  const named = segments
    .map((segment, i) =>
      isParam(segment) ? null : isParam(segments[i + 1] ?? '') ? singular(segment) : segment,
    )
    .filter((segment): segment is string => segment !== null);
  const last = segments.at(-1) ?? '';
  const onItem = isParam(last);
  const verb = method.toUpperCase();
  if (named.length === 0) return `${verb.toLowerCase()}Root`;
  // The agent gateway: `POST /api/v1/flow/{route}/{verb}` is the route's verb (`cellPmGiveMeWork`).
  if (named[0] === 'flow' && named.length === 3) return `${camel([named[1]!])}${pascal([named[2]!])}`;
  if (verb === 'GET') return `${onItem || !isPlural(last) ? 'get' : 'list'}${pascal(named)}`;
  if (verb === 'PATCH' || (verb === 'PUT' && onItem)) return `update${pascal(named)}`;
  if (verb === 'PUT') return `set${pascal(named)}`;
  if (verb === 'DELETE') return `delete${pascal(named)}`;
  // POST: to a collection creates one, to an uncountable sets it; otherwise the last word is the
  // action (`…/{id}/request-changes` is an action on the item, not a collection).
  if (onItem) return `post${pascal(named)}`;
  const itemAction = last.includes('-') && isParam(segments.at(-2) ?? '');
  if (isPlural(last) && !itemAction) return `create${pascal([...named.slice(0, -1), singular(last)])}`;
  if (UNCOUNTABLE.has(last)) return `set${pascal(named)}`;
  return `${camel([last])}${pascal(named.slice(0, -1))}`;
}
