/**
 * Response serializers: fast-json-stringify, as Fastify builds them by default, but each distinct
 * response schema built once per process (see `compiledOnce`) instead of once per route and app.
 */

import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { compiledOnce } from './validation.js';

const build = compiledOnce((schema) => fastJson(schema));

export function serializerCompiler(): FastifySerializerCompiler<unknown> {
  return ({ schema }) => build(schema as object);
}
