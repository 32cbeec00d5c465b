/**
 * /api/projects: any authenticated caller reads; the CEO and PMs create, change and delete (cell
 * PMs only within their own cell), because a project's commands run on the engines' machines.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { PROJECT_MANAGER_ROLES } from './access.js';
import {
  CreateProjectBody,
  ListProjectsQuery,
  ProjectParams,
  ProjectsList,
  ProjectView,
  TAGS,
  UpdateProjectBody,
} from './api-schemas.js';
import type { ProjectsService } from './service.js';
import { projectView } from './view.js';

const notFound = errorResponse('There is no project with that UUID or slug.');
const invalid = errorResponse('The request is invalid; `details` lists the fields.');
const forbidden = errorResponse(
  'Only the CEO and PMs may change projects; a cell PM only those of its own cell.',
);

export function registerProjectsRoutes(app: FastifyInstance, service: ProjectsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const managers = requireRole(...PROJECT_MANAGER_ROLES);

  api.get(
    '/api/projects',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'List projects',
        querystring: ListProjectsQuery,
        response: { 200: ProjectsList, 401: authErrorResponses[401], 422: invalid },
      },
    },
    async (request) => {
      const { cell, active_only, limit = 100, offset = 0 } = request.query;
      const page = await service.list({ cell, activeOnly: active_only, limit, offset });
      return { projects: page.projects.map(projectView), total: page.total, limit, offset };
    },
  );

  api.get(
    '/api/projects/:id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read one project by UUID or slug',
        params: ProjectParams,
        response: { 200: ProjectView, 401: authErrorResponses[401], 404: notFound },
      },
    },
    async (request) => projectView(await service.get(request.params.id)),
  );

  api.post(
    '/api/projects',
    {
      preValidation: managers,
      schema: {
        tags: TAGS,
        summary: 'Create a project (CEO and PMs)',
        description:
          'A cell PM may create projects of its own cell only (its cell by default). 409 `slug_taken`; 422 with ' +
          'field details for an invalid URL, branch, ladder, path or budget.',
        body: CreateProjectBody,
        response: {
          201: ProjectView,
          401: authErrorResponses[401],
          403: forbidden,
          409: errorResponse('The slug is taken.'),
          422: invalid,
        },
      },
    },
    async (request, reply) => {
      const project = await service.create(request.identity!, request.body);
      return reply.status(201).send(projectView(project));
    },
  );

  api.patch(
    '/api/projects/:id',
    {
      preValidation: managers,
      schema: {
        tags: TAGS,
        summary: 'Change a project (CEO and PMs)',
        description:
          'Only the fields present change; an explicit null clears. `git_token`: null or absent keeps it, "" clears ' +
          'it, a value replaces it.',
        params: ProjectParams,
        body: UpdateProjectBody,
        response: {
          200: ProjectView,
          401: authErrorResponses[401],
          403: forbidden,
          404: notFound,
          409: errorResponse('The new slug is taken.'),
          422: invalid,
        },
      },
    },
    async (request) => projectView(await service.update(request.identity!, request.params.id, request.body)),
  );

  api.delete(
    '/api/projects/:id',
    {
      preValidation: managers,
      schema: {
        tags: TAGS,
        summary: 'Delete a project (CEO and PMs)',
        description: '409 `project_in_use` while tasks or products reference it.',
        params: ProjectParams,
        response: {
          204: Type.Null({ description: 'Deleted.' }),
          401: authErrorResponses[401],
          403: forbidden,
          404: notFound,
          409: errorResponse('Tasks or products still reference the project.'),
        },
      },
    },
    async (request, reply) => {
      await service.delete(request.identity!, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
