/**
 * /api/settings, for the CEO only: list and read settings, change a writable one, and the
 * Feature Flags view (persisted vs effective value; flag changes apply on the next restart).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse } from '../../platform/http/error-schema.js';
import { FlagsList, KeyParams, PutSettingBody, SettingsList, SettingView, TAGS } from './api-schemas.js';
import { type FeatureFlags, type FlagStatus, RESTART_NOTE } from './feature-flags.js';
import type { SettingRecord, SettingsService } from './service.js';

export function registerSettingsRoutes(
  app: FastifyInstance,
  service: SettingsService,
  flags: FeatureFlags,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');

  const view = (record: SettingRecord) => {
    const status = flags.status(record);
    return {
      key: record.key,
      kind: record.definition.kind,
      label: record.definition.label,
      description: record.definition.description,
      value: record.value,
      default: record.definition.default,
      writable: record.definition.writable,
      updated_at: record.updatedAt?.toISOString() ?? null,
      updated_by: record.updatedBy,
      ...(status ? { effective: status.effective, restart_required: status.restartRequired } : {}),
    };
  };

  const flagView = (status: FlagStatus) => ({
    key: status.key,
    label: status.label,
    description: status.description,
    persisted: status.persisted,
    effective: status.effective,
    restart_required: status.restartRequired,
  });

  api.get(
    '/api/settings',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'List every setting with its value, default and last change',
        response: { 200: SettingsList, ...authErrorResponses },
      },
    },
    async () => ({ settings: (await service.list()).map(view) }),
  );

  api.get(
    '/api/settings/feature-flags',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'List the feature flags: persisted value, effective value, restart needed',
        description: 'A flag change is persisted at once and takes effect on the next backend restart.',
        response: { 200: FlagsList, ...authErrorResponses },
      },
    },
    async () => ({ flags: (await flags.statuses(service)).map(flagView), note: RESTART_NOTE }),
  );

  api.get(
    '/api/settings/:key',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Read one setting',
        params: KeyParams,
        response: { 200: SettingView, ...authErrorResponses, 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => view(await service.read(request.params.key)),
  );

  api.put(
    '/api/settings/:key',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Change a writable setting',
        description:
          'The value must match the setting’s schema. 422 `unknown_setting` for an unknown key, ' +
          '`setting_not_writable` for internal state, `validation_failed` (with field details) for a wrong value. ' +
          'A flag change is persisted now and becomes effective on the next restart.',
        params: KeyParams,
        body: PutSettingBody,
        response: { 200: SettingView, ...authErrorResponses, 422: ErrorResponse },
      },
    },
    // The role guard has established the identity.
    async (request) => view(await service.set(request.params.key, request.body.value, request.identity!.id)),
  );
}
