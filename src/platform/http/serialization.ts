/**
 * Response serializers: fast-json-stringify, as Fastify builds them by default, but each distinct
 * response schema built once per process (see `compiledOnce`) instead of once per route and app.
 */

import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { compiledOnce } from './validation.js';

/** Built at its route's first answer, not at start. */
const build = compiledOnce((schema): ((data: unknown) => string) => {
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => {
    serialize ??= fastJson(schema);
    return serialize(data);
  };
});

export function serializerCompiler(): FastifySerializerCompiler<unknown> {
  return ({ schema }) => build(schema as object);
}
