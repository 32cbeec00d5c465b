/**
 * THE catalogue of settings: every key the settings store accepts, declared once here. Adding a
 * setting is adding one `defineSetting({...})` literal to `CATALOGUE`; keys, value types, schema
 * checks, the API listing and the feature-flag snapshot all follow from it.
 *
 * - `kind: 'flag'`: a boolean feature flag. It is read once at boot; a change through the API is
 *   persisted and takes effect on the next restart. Flags are exact keys.
 * - `kind: 'value'`: read whenever it is needed, so a change applies at once.
 * - `writable: false`: internal state other modules keep here (e.g. `maintenance_pause.*`, a family
 *   of keys sharing one schema). The API shows it but only the service changes it.
 */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { type Definitions, defineSetting, type FlagKeyIn, type KeyIn, type ValueFor } from './definition.js';

export const CATALOGUE = [
  defineSetting({
    key: 'ci_watch',
    kind: 'flag',
    label: 'Multi-repo CI-watch',
    description:
      'Watches the latest CI conclusion on the default branch of every opted-in project and opens exactly one fix task ' +
      'when it is red. Never starts, merges or deploys that task. Per-project opt-in is in the Budget & Ops card.',
    schema: Type.Boolean(),
    default: false,
    writable: true,
  }),
  defineSetting({
    key: 'dep_update',
    kind: 'flag',
    label: 'Dependency-update bot',
    description:
      "Runs each opted-in project's dep_update_command in a throwaway clone, diffs the lockfiles only, and opens one " +
      "'update dependencies' task when they would change. Read-only: nothing is committed, pushed, merged or deployed.",
    schema: Type.Boolean(),
    default: false,
    writable: true,
  }),
  defineSetting({
    key: 'release_manager',
    kind: 'flag',
    label: 'Gated release manager',
    description:
      "Runs a readiness sweep on the service's own repository and opens a held release proposal when the change set " +
      'clears the threshold and the quality gate is green. Nothing is published without the CEO approving it.',
    schema: Type.Boolean(),
    default: false,
    writable: true,
  }),
  defineSetting({
    key: 'telegram_enabled',
    kind: 'flag',
    label: 'Telegram chat relay',
    description:
      'Sends every in-app notification also to the configured Telegram chat (bot token and chat id are set, ' +
      'write-only, under /api/telegram/credentials). A failing Bot API never fails the notification.',
    schema: Type.Boolean(),
    default: false,
    writable: true,
  }),
  defineSetting({
    key: 'provisioning',
    kind: 'flag',
    label: 'Pitch provisioning',
    description:
      'Lets the board propose product pitches (/api/pitches) and the CEO approve them, which creates the ' +
      "pitch's repositories and projects (a product when several cells) and a planning task for the main PM.",
    schema: Type.Boolean(),
    default: false,
    writable: true,
  }),
  defineSetting({
    key: 'research',
    kind: 'flag',
    label: 'Web research',
    description:
      'Lets the product owner, head of marketing and PMs search the web and fetch pages (/api/research) through the ' +
      'search provider the CEO configures (Tavily, Brave or Exa; key write-only). Per-agent daily quota; fetches ' +
      'refuse private and loopback addresses.',
    schema: Type.Boolean(),
    default: false,
    writable: true,
  }),
  defineSetting({
    key: 'ceo_name',
    kind: 'value',
    label: 'CEO name',
    description: 'How the panel and the agents address the CEO.',
    schema: Type.String({ minLength: 1, maxLength: 60 }),
    default: 'CEO',
    writable: true,
  }),
  defineSetting({
    key: 'transcript_retention_days',
    kind: 'value',
    label: 'Transcript retention (days)',
    description: 'Days agent transcripts are kept before they are pruned.',
    schema: Type.Integer({ minimum: 1 }),
    default: 30,
    writable: true,
  }),
  defineSetting({
    key: 'company_monthly_budget_usd',
    kind: 'value',
    label: 'Company monthly budget (USD)',
    description:
      'The company-wide spending cap per calendar month (UTC), summed over every project. Crossing it notifies the ' +
      'CEO once and the dispatcher spawns nothing until the month turns or the cap is raised. Empty means no cap.',
    schema: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    default: null,
    writable: true,
  }),
  defineSetting({
    key: 'model_prices',
    kind: 'value',
    label: 'Model prices (USD per 1M tokens)',
    description:
      'Additions to and overrides of the built-in price table (docs/api.md, "Usage and cost"): model name or name prefix → ' +
      '{input, output, cache_read, cache_write} in USD per million tokens. The longest matching prefix prices a model; ' +
      'a model no entry matches (local models) costs nothing. Applies to usage recorded from then on.',
    schema: Type.Record(
      Type.String({ minLength: 1, maxLength: 200 }),
      Type.Object(
        {
          input: Type.Number({ minimum: 0, maximum: 10_000 }),
          output: Type.Number({ minimum: 0, maximum: 10_000 }),
          cache_read: Type.Number({ minimum: 0, maximum: 10_000 }),
          cache_write: Type.Number({ minimum: 0, maximum: 10_000 }),
        },
        { additionalProperties: false },
      ),
      { maxProperties: 500 },
    ),
    default: {},
    writable: true,
  }),
  defineSetting({
    key: 'embedding_model',
    kind: 'value',
    label: 'Embedding model',
    description:
      'The model that embeds the retrieval index for vector search (e.g. `text-embedding-3-small`, ' +
      '`nomic-embed-text`), served by the OpenAI-compatible provider routed for the system role. Empty: ' +
      'search is full-text only. Changing it re-embeds everything.',
    schema: Type.String({ maxLength: 200 }),
    default: '',
    writable: true,
  }),
  defineSetting({
    key: 'research_daily_quota_per_agent',
    kind: 'value',
    label: 'Research quota (per agent per UTC day)',
    description:
      'Searches and fetches one agent may make per UTC day; past it the API answers 429 until midnight.',
    schema: Type.Integer({ minimum: 0, maximum: 10_000 }),
    default: 50,
    writable: true,
  }),
  defineSetting({
    key: 'research_max_results',
    kind: 'value',
    label: 'Research results per search',
    description: 'The most results one search returns (a caller may ask for fewer, never more; at most 10).',
    schema: Type.Integer({ minimum: 1, maximum: 10 }),
    default: 5,
    writable: true,
  }),
  defineSetting({
    key: 'research_fetch_max_bytes',
    kind: 'value',
    label: 'Research fetch size (bytes)',
    description: 'The most bytes of a page one fetch reads; a longer page is cut there and marked truncated.',
    schema: Type.Integer({ minimum: 1024, maximum: 2_000_000 }),
    default: 200_000,
    writable: true,
  }),
  defineSetting({
    key: 'maintenance_pause.*',
    kind: 'value',
    label: 'Maintenance pause',
    description:
      'The operator maintenance pause of one scope (maintenance_pause.dispatch, .board_programs, .engines): ' +
      'who paused it, in which mode, why and until when. Changed only through /api/maintenance-pause.',
    schema: Type.Union([
      Type.Object({ paused: Type.Literal(false) }, { additionalProperties: false }),
      Type.Object(
        {
          paused: Type.Literal(true),
          mode: StringEnum(['drain', 'kill']),
          paused_by: Type.String({ minLength: 1, maxLength: 200 }),
          reason: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]),
          paused_at: Type.String({ format: 'date-time' }),
          expires_at: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
    ]),
    default: { paused: false },
    writable: false,
  }),
] as const satisfies Definitions;

/** Every key the catalogue accepts (a family `p.*` accepts every `p.<name>`). */
export type SettingKey = KeyIn<typeof CATALOGUE>;

/** The keys of the feature flags. */
export type FlagKey = FlagKeyIn<typeof CATALOGUE>;

/** The type of the value stored under `K`. */
export type SettingValue<K extends SettingKey> = ValueFor<typeof CATALOGUE, K>;
