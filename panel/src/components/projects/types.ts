/** The project shapes the pages use, from the generated API types. */
import type { paths } from '../../api/client';

export type Project = paths['/api/projects/{id}']['get']['responses'][200]['content']['application/json'];
export type ProjectPatch = NonNullable<
  paths['/api/projects/{id}']['patch']['requestBody']
>['content']['application/json'];
export type ProjectCreate = NonNullable<
  paths['/api/projects']['post']['requestBody']
>['content']['application/json'];
export type Rung = NonNullable<Project['environments']>[number];

export const GIT_PROVIDERS = ['github', 'gitea', 'local'] as const;

/** The ladder as one line: `dev → staging → prod`, or the default branch alone. */
export function branchLine(project: Pick<Project, 'environments' | 'default_branch'>): string {
  return project.environments && project.environments.length > 0
    ? project.environments.map((rung) => rung.branch).join(' → ')
    : project.default_branch;
}
