/**
 * A project's settings (`/projects/:slug`): repository, the Budget & Ops card (CI-watch opt-in and
 * workflow, dependency-bot command and lockfiles, budget), the environment ladder, the write-only
 * git token, CI and quality commands, and the engines' cycle history.
 */
import { Link, useParams } from 'react-router';
import { $api } from '../api/client';
import { problemOf } from '../api/problem';
import { BUDGET_OPS_FIELDS, COMMAND_FIELDS, REPOSITORY_FIELDS } from '../components/projects/cards';
import { EngineCycles } from '../components/projects/engine-cycles';
import { FieldsCard } from '../components/projects/fields-card';
import { GitTokenCard } from '../components/projects/git-token-card';
import { LadderCard } from '../components/projects/ladder-card';
import { branchLine } from '../components/projects/types';
import { EmptyState, Loading, Page } from '../components/ui/page';
import { ProblemNote } from '../components/ui/problem-note';
import { ShortId } from '../components/ui/short-id';

export default function ProjectDetailPage() {
  const { slug = '' } = useParams();
  const project = $api.useQuery('get', '/api/projects/{id}', { params: { path: { id: slug } } });

  if (project.error) {
    const missing = problemOf(project.error).code === 'not_found';
    return (
      <Page title="Project" narrow>
        {missing ? (
          <EmptyState>
            There is no project “{slug}”.{' '}
            <Link className="text-accent underline" to="/projects">
              All projects
            </Link>
          </EmptyState>
        ) : (
          <ProblemNote error={project.error} prefix="Could not load the project" />
        )}
      </Page>
    );
  }
  if (project.isPending)
    return (
      <Page title="Project" narrow>
        <Loading what="the project" />
      </Page>
    );
  const p = project.data;
  return (
    <Page title={p.name} narrow>
      <p className="-mt-3 flex flex-wrap gap-x-3 text-muted">
        <Link className="text-accent underline" to="/projects">
          Projects
        </Link>
        <span className="font-mono text-xs leading-5">{p.slug}</span>
        <ShortId id={p.id} />
        <span>{p.resolved_provider ?? 'provider unknown'}</span>
        <span className="font-mono text-xs leading-5">{branchLine(p)}</span>
        {!p.is_active && <span>inactive</span>}
      </p>
      <FieldsCard
        key={`repo-${p.id}`}
        project={p}
        title="Repository"
        description="Where the code lives and how to reach its forge."
        fields={REPOSITORY_FIELDS}
        testId="repository-card"
      />
      <FieldsCard
        key={`ops-${p.id}`}
        project={p}
        title="Budget & Ops"
        description="The autonomous engines' opt-ins for this project and its budget. Engine changes apply on their next sweep."
        fields={BUDGET_OPS_FIELDS}
        testId="budget-ops-card"
      />
      <LadderCard key={`ladder-${p.id}`} project={p} />
      <GitTokenCard key={`token-${p.id}`} project={p} />
      <FieldsCard
        key={`commands-${p.id}`}
        project={p}
        title="CI and quality commands"
        description="What agents and engines run in the repository."
        fields={COMMAND_FIELDS}
        testId="commands-card"
      />
      <EngineCycles />
    </Page>
  );
}
