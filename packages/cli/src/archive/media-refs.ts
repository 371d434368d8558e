/**
 * Media addresses in imported content. Media get new ids on the new project, and their addresses
 * name the project and the id (`<base>/media/<projectId>/<mediaId>.<ext>`), so a field that held the
 * old address (what the dashboard's image picker stores) or the old id would point at nothing. Every
 * string of every imported value is rewritten: an address of an exported file — with any origin, or
 * none, and with its variant query kept (`?w=160`) — becomes the new file's address, and a string that
 * is exactly an exported media id becomes the new id. Anything else is left as it was. Entry ids are
 * rewritten the same way (`entryRewrite`).
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

/** One string's rewrite: the new string, or the same one when it is not an address or id it knows. */
export type Rewrite = (text: string) => string;

export function mediaRewriter(moves: MediaMoves): Rewriter {
  return rewriter(mediaRewrite(moves));
}

/** Media addresses and ids of the export → those of the new project. */
export function mediaRewrite({ fromProject, moved }: MediaMoves): Rewrite {
  if (moved.size === 0) return (text) => text;
  // An optional origin, then /media/<project>/<id>.<ext>: the id is the part the map knows.
  const address = new RegExp(
    `(?:https?://[^\\s"'<>()/?#]+)?/media/${escapeRegExp(fromProject)}/([A-Za-z0-9_-]+)\\.[A-Za-z0-9]+`,
    'g',
  );
  return (text) => {
    const exact = moved.get(text);
    if (exact) return exact.id;
    if (!text.includes('/media/')) return text;
    return text.replace(address, (whole, id: string) => moved.get(id)?.url ?? whole);
  };
}

/**
 * Entry ids in imported content: entries get new ids on the new project, so a reference (contract §13:
 * a string that is exactly an entry id, at any depth: `fields.author`, `fields.items[1].ref`) to an
 * exported entry becomes a reference to its imported copy. An id of an entry that was not exported is
 * left as it was (it reads as missing, as it did).
 */
export function entryRewrite(moved: ReadonlyMap<string, string>): Rewrite {
  return (text) => moved.get(text) ?? text;
}

/** Walks a value and applies each rewrite, in order, to every string in it; counts strings changed. */
export function rewriter(...rewrites: Rewrite[]): Rewriter {
  let count = 0;
  const rewriteString = (text: string): string => {
    const next = rewrites.reduce((value, rewrite) => rewrite(value), text);
    if (next !== text) count++;
    return next;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return rewriteString(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, walk(v)]));
    }
    return value;
  };
  return {
    rewrite: <T>(value: T) => (rewrites.length === 0 ? value : (walk(value) as T)),
    get count() {
      return count;
    },
  };
}
