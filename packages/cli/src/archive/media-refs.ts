/**
 * Media addresses in imported content. Media get new ids on the new project, and their addresses
 * name the project and the id (`<base>/media/<projectId>/<mediaId>.<ext>`), so a field that held the
 * old address (what the dashboard's image picker stores) or the old id would point at nothing. Every
 * string of every imported value is rewritten: an address of an exported file — with any origin, or
 * none, and with its variant query kept (`?w=160`) — becomes the new file's address, and a string that
 * is exactly an exported media id becomes the new id. Anything else is left as it was.
 */
export interface MediaMoves {
  /** The exported project's id, as it appears in media addresses. */
  fromProject: string;
  /** Old media id → the new record's id and address. */
  moved: Map<string, { id: string; url: string }>;
}

export interface Rewriter {
  rewrite<T>(value: T): T;
  /** How many strings were changed so far. */
  readonly count: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export function mediaRewriter({ fromProject, moved }: MediaMoves): Rewriter {
  let count = 0;
  // An optional origin, then /media/<project>/<id>.<ext>: the id is the part the map knows.
  const address = new RegExp(
    `(?:https?://[^\\s"'<>()/?#]+)?/media/${escapeRegExp(fromProject)}/([A-Za-z0-9_-]+)\\.[A-Za-z0-9]+`,
    'g',
  );
  const rewriteString = (text: string): string => {
    const exact = moved.get(text);
    if (exact) {
      count++;
      return exact.id;
    }
    if (!text.includes('/media/')) return text;
    const next = text.replace(address, (whole, id: string) => moved.get(id)?.url ?? whole);
    if (next !== text) count++;
    return next;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return moved.size > 0 ? rewriteString(value) : value;
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, walk(v)]));
    }
    return value;
  };
  return {
    rewrite: <T>(value: T) => walk(value) as T,
    get count() {
      return count;
    },
  };
}

/** For `--keep-media-urls`: values are imported exactly as exported. */
export const keepAsIs: Rewriter = { rewrite: (value) => value, count: 0 };
