/** Identifier shapes shared across modules. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a 36-character UUID (any version), so a route can tell an id from a slug. */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
