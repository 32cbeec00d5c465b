/**
 * Schema building blocks every route uses, so the emitted JSON Schema (validation and /docs) says
 * plainly what is allowed:
 * - `StringEnum(values)`: one `{type: "string", enum: [...]}`, never an `anyOf` of one-value consts
 *   (a bad value then answers "nature must be one of: technical, non_technical");
 * - `QueryInteger(...)`: an integer query parameter with a ceiling, so `offset=1e30` or
 *   `offset=9223372036854775808` is a 422, not a database overflow and not a silently rounded number.
 */
import { type TEnum, type TInteger, type TSchemaOptions, Type } from 'typebox';

/** A plain JSON-Schema string `enum` whose static type is the union of `values`. */
export function StringEnum<const Values extends string[]>(
  values: readonly [...Values],
  options: TSchemaOptions = {},
): TEnum<Values> {
  return Type.Enum([...values] as [...Values], { ...options, type: 'string' } as TSchemaOptions);
}

/**
 * The ceiling of every integer query parameter: PostgreSQL's `integer` range, far below the point
 * (2^53) where a JavaScript number stops being exact.
 */
export const MAX_QUERY_INTEGER = 2_147_483_647;

/** An integer query parameter (limit, offset, sequence, line…), bounded by `maximum` or MAX_QUERY_INTEGER. */
export function QueryInteger(
  options: { minimum?: number; maximum?: number; default?: number; description?: string } = {},
): TInteger {
  const maximum = Math.min(options.maximum ?? MAX_QUERY_INTEGER, MAX_QUERY_INTEGER);
  return Type.Integer({ minimum: 0, ...options, maximum });
}

/** `offset` of an offset-paginated list. */
export const Offset = (description = 'Rows to skip (offset pagination).') =>
  QueryInteger({ minimum: 0, default: 0, description });
