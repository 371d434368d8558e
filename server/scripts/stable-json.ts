/**
 * The document as committed: two-space JSON, a final newline, paths and named schemas in code-unit
 * order. Everything else keeps the order the schemas declare (a reader expects `id` before
 * `createdAt`), which is already stable; sorting only the two maps that several modules add to
 * keeps a diff from reshuffling when a route is registered earlier or later.
 */
export function stableDocument(document: unknown): string {
  const doc = structuredClone(document) as {
    paths?: Record<string, unknown>;
    components?: { schemas?: Record<string, unknown> };
  };
  if (doc.paths) doc.paths = sorted(doc.paths);
  if (doc.components?.schemas) doc.components.schemas = sorted(doc.components.schemas);
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function sorted<T>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
