/**
 * Names for the ids a task carries: agents (assignee) by slug, projects by slug. Both lists are
 * small and cached for the page's life; an id not (yet) known is shown shortened.
 */
import { useMemo } from 'react';
import { $api } from '../../api/client';

export interface Lookups {
  agent: (id: string | null | undefined) => string;
  project: (id: string | null | undefined) => string;
  agents: { id: string; slug: string; role: string }[];
  projects: { id: string; slug: string; name: string }[];
}

const short = (id: string) => id.slice(0, 8);

export function useLookups(): Lookups {
  const agents = $api.useQuery('get', '/api/agents', {}, { staleTime: 300_000 });
  const projects = $api.useQuery(
    'get',
    '/api/projects',
    { params: { query: { limit: 200 } } },
    { staleTime: 300_000 },
  );
  return useMemo(() => {
    const agentList = agents.data?.agents ?? [];
    const projectList = projects.data?.projects ?? [];
    const agentSlugs = new Map(agentList.map((a) => [a.id, a.slug]));
    const projectSlugs = new Map(projectList.map((p) => [p.id, p.slug]));
    return {
      agent: (id) => (id ? (agentSlugs.get(id) ?? short(id)) : '—'),
      project: (id) => (id ? (projectSlugs.get(id) ?? short(id)) : '—'),
      agents: agentList,
      projects: projectList,
    };
  }, [agents.data, projects.data]);
}
