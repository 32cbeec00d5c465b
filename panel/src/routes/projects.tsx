/**
 * Projects: every project in a table (repository, provider, branches or ladder, engine opt-ins,
 * token, cell), each linking to its settings; "New project" opens the create form.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { $api } from '../api/client';
import { CreateProjectDialog } from '../components/projects/create-project-dialog';
import { branchLine } from '../components/projects/types';
import { Button } from '../components/ui/button';
import { EmptyState, Loading, Page } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { TableScroll } from '../components/ui/table-scroll';
import { RelativeTime } from '../components/ui/time';

export default function ProjectsPage() {
  const [creating, setCreating] = useState(false);
  const list = $api.useQuery('get', '/api/projects', {
    params: { query: { active_only: false, limit: 500 } },
  });
  const projects = list.data?.projects ?? [];

  return (
    <Page
      title="Projects"
      actions={
        <Button variant="primary" onClick={() => setCreating(true)}>
          New project
        </Button>
      }
    >
      {list.error && <ProblemNote error={list.error} prefix="Could not load the projects" />}
      {list.isPending && <Loading what="projects" />}
      {list.isSuccess && projects.length === 0 && (
        <EmptyState>
          No projects yet. Add the repository the company should work on with <strong>New project</strong>.
        </EmptyState>
      )}
      {projects.length > 0 && (
        <TableScroll label="Projects">
          <table className="w-full text-left" aria-label="Projects">
            <thead className="border-b border-border text-xs text-muted">
              <tr>
                <th className="px-3 py-2 font-medium">Project</th>
                <th className="px-3 py-2 font-medium">Repository</th>
                <th className="px-3 py-2 font-medium">Provider</th>
                <th className="px-3 py-2 font-medium">Branches</th>
                <th className="px-3 py-2 font-medium">CI-watch</th>
                <th className="px-3 py-2 font-medium">Dependency bot</th>
                <th className="px-3 py-2 font-medium">Git token</th>
                <th className="px-3 py-2 font-medium">Cell</th>
                <th className="px-3 py-2 font-medium">Updated</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {projects.map((project) => (
                <tr key={project.id} data-testid={`project-row-${project.slug}`}>
                  <td className="px-3 py-2">
                    <Link className="font-medium text-accent underline" to={`/projects/${project.slug}`}>
                      {project.name}
                    </Link>
                    <span className="ml-2 font-mono text-xs text-muted">{project.slug}</span>
                    {!project.is_active && <span className="ml-2 text-xs text-muted">(inactive)</span>}
                  </td>
                  <td className="max-w-[320px] truncate px-3 py-2 font-mono text-xs" title={project.git_url}>
                    {project.git_url}
                  </td>
                  <td className="px-3 py-2">{project.resolved_provider ?? 'unknown'}</td>
                  <td className="px-3 py-2 font-mono text-xs">{branchLine(project)}</td>
                  <td className="px-3 py-2">{project.ci_watch_enabled ? 'on' : 'off'}</td>
                  <td className="px-3 py-2">{project.dep_update_command ? 'on' : 'off'}</td>
                  <td className="px-3 py-2">{project.has_git_token ? 'set' : 'not set'}</td>
                  <td className="px-3 py-2">{project.assigned_cell ?? 'org'}</td>
                  <td className="px-3 py-2 text-muted">
                    <RelativeTime at={project.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {list.data && list.data.total > projects.length && (
        <p className="text-muted">
          Showing {projects.length} of {list.data.total}.
        </p>
      )}
      <CreateProjectDialog open={creating} onOpenChange={setCreating} />
    </Page>
  );
}
