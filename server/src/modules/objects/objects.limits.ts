/**
 * Limits of objects/save (contract §1: bad input is a clear 4xx). The bench's save of 1,000
 * objects x 10 fields + 2 collections x 10 items sits well inside them; the JSON body limit
 * (CMS_BODY_LIMIT_BYTES) bounds the total on top.
 */
export const LIMITS = {
  objectsPerSave: 1000,
  fieldsPerObject: 200,
  collectionsPerObject: 50,
  itemsPerCollection: 1000,
  typeLength: 64,
  idLength: 200,
  /** A dotted field path, and a collection name or item id. */
  pathLength: 200,
  /** Levels of nested plain objects flattened into a path (`a.b.c` is depth 3). */
  flattenDepth: 8,
  /** A string field value, or an item value as JSON, in characters. */
  valueLength: 16_384,
  /** Types named in GET /v1/objects?types=. */
  typesPerQuery: 50,
} as const;
