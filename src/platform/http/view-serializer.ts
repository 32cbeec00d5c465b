/**
 * A route's response serialiser for large bodies that its handler builds exactly in the response
 * schema's shape (every object made property by property, in the schema's order, with the schema's
 * types): plain `JSON.stringify`. The schema still validates nothing out and documents the shape
 * (/docs); fast-json-stringify's schema-driven writer costs about three times as much on arrays of
 * thousands of small objects (each nullable field is an `anyOf` it settles per value), and its
 * output, a string concatenated piece by piece, is flattened again when the socket writes it.
 */
export const exactViewSerializer = () => (data: unknown) => JSON.stringify(data);
