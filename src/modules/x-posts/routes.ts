/**
 * /api/x: the head of marketing drafts posts; the CEO lists them, approves (posting through the X
 * API) or rejects them, and sets the write-only X credentials.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  ApproveBody,
  CredentialsBody,
  CredentialsView,
  DraftBody,
  ListQuery,
  PostParams,
  RejectBody,
  TAGS,
  XPostList,
  XPostView,
} from './api-schemas.js';
import type { XPostsService } from './service.js';

const invalid = errorResponse(
  'The request is invalid (a body over 280 characters, say); `details` names the field.',
);
const missing = errorResponse('There is no such post.');
const decided = errorResponse(
  'The post is decided already (`x_post_decided`), or X is not configured (`x_not_configured`).',
);

export function registerXPostsRoutes(app: FastifyInstance, service: XPostsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');
  const readers = requireRole('ceo', 'head_marketing');

  api.get(
    '/api/x/posts',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'X post drafts, newest first, each with its impact bar',
        querystring: ListQuery,
        response: { 200: XPostList, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => ({ posts: await service.list(request.query.status, request.query.limit) }),
  );

  api.get(
    '/api/x/posts/:id',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'One X post draft',
        params: PostParams,
        response: { 200: XPostView, ...authErrorResponses, 404: missing, 422: invalid },
      },
    },
    async (request) => service.get(request.params.id),
  );

  api.post(
    '/api/x/posts',
    {
      preValidation: requireRole('head_marketing'),
      schema: {
        tags: TAGS,
        summary: 'Draft a release or feature post (head of marketing)',
        description:
          'The draft is held for the CEO and scored by the impact bar. A revision names the rejected post in ' +
          '`revision_of`. Over 280 characters is a 422.',
        body: DraftBody,
        response: { 201: XPostView, ...authErrorResponses, 422: invalid },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.draft(request.body, request.identity!.id);
    },
  );

  api.post(
    '/api/x/posts/:id/approve',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Approve a held (or failed) post and post it to X (CEO)',
        description:
          'Optionally with an edited body (≤ 280 characters). Answers the post: `posted` with its tweet id, or ' +
          '`failed` with the reason (approve again to retry).',
        params: PostParams,
        body: ApproveBody,
        response: { 200: XPostView, ...authErrorResponses, 404: missing, 409: decided, 422: invalid },
      },
    },
    async (request) => service.approve(request.params.id, request.body.body, request.identity!.id),
  );

  api.post(
    '/api/x/posts/:id/reject',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Reject a held post with a reason (CEO)',
        description: 'The head of marketing sees the reason and drafts a revision (`revision_of`).',
        params: PostParams,
        body: RejectBody,
        response: { 200: XPostView, ...authErrorResponses, 404: missing, 409: decided, 422: invalid },
      },
    },
    async (request) => service.reject(request.params.id, request.body.reason, request.identity!.id),
  );

  api.get(
    '/api/x/credentials',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Whether X credentials are set (never the token)',
        response: { 200: CredentialsView, ...authErrorResponses },
      },
    },
    async () => service.credentials.status(),
  );

  api.put(
    '/api/x/credentials',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Set or clear the X credentials (CEO)',
        description:
          'The user bearer token is stored encrypted and never shown again; an empty token clears it.',
        body: CredentialsBody,
        response: { 200: CredentialsView, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => {
      const token = request.body.bearer_token.trim();
      if (token) await service.credentials.set(token, request.body.base_url ?? null, request.identity!.id);
      else await service.credentials.clear();
      return service.credentials.status();
    },
  );
}
