/**
 * Places inside an entry's form, as visual editing names them (the SDK's `ItemPath`): fields by key,
 * list items and blocks by `_key`, never by index, so a reorder on either end does not point at
 * another item: `features[_key=k2].title`. The form marks them in the DOM: each field's wrapper carries
 * `data-folio-field` (its key), each item's row `data-folio-key` (its `_key`); the path of an element
 * is read from those above it, and the element of a path found from them.
 */
type Segment = { field: string } | { key: string };

export function segmentsOf(path: string): Segment[] {
  const out: Segment[] = [];
  for (const found of path.matchAll(/\[_key=([^\]]*)\]|([^.[\]]+)/g)) {
    if (found[1] !== undefined) out.push({ key: found[1] });
    else if (found[2] !== undefined) out.push({ field: found[2] });
  }
  return out;
}

/** The `_key`s a path goes through: the items to open to show it. */
export const keysOf = (path: string | null): string[] =>
  path ? segmentsOf(path).flatMap((s) => ('key' in s ? [s.key] : [])) : [];

/** Where `element` sits in the form `root` (a field, an item, a field inside it), or null. */
export function placeOf(root: Element, element: Element): string | null {
  let path = '';
  // What comes after a segment: `.title` after anything, `[_key=…]` right after its list's name.
  const rest = () => (path && !path.startsWith('[') ? `.${path}` : path);
  for (let at: Element | null = element; at && at !== root; at = at.parentElement) {
    const html = at as HTMLElement;
    if (html.dataset.folioKey !== undefined) path = `[_key=${html.dataset.folioKey}]${rest()}`;
    else if (html.dataset.folioField !== undefined) path = `${html.dataset.folioField}${rest()}`;
  }
  return path === '' ? null : path;
}

/**
 * The elements of a path in the form `root`: the deepest item's row it names (or null) and the field
 * (or null), each the nearest of its name inside the one above, so a field of a nested item is not
 * taken for its container's field of the same key.
 */
export function elementsOf(root: Element, path: string): { row: Element | null; field: Element | null } {
  let scope: Element = root;
  let row: Element | null = null;
  let field: Element | null = null;
  for (const segment of segmentsOf(path)) {
    const selector =
      'key' in segment
        ? `[data-folio-key="${CSS.escape(segment.key)}"]`
        : `[data-folio-field="${CSS.escape(segment.field)}"]`;
    const inside = scope;
    const found = [...inside.querySelectorAll(selector)].find(
      (candidate) =>
        candidate.parentElement?.closest('[data-folio-key], [data-folio-form]') === owner(inside),
    );
    if (!found) break;
    scope = found;
    if ('key' in segment) {
      row = found;
      field = null;
    } else field = found;
  }
  return { row, field };
}

/** The item row (or the form) that owns what is inside `scope`. */
const owner = (scope: Element): Element | null =>
  (scope as HTMLElement).dataset.folioKey !== undefined ||
  (scope as HTMLElement).dataset.folioForm !== undefined
    ? scope
    : scope.closest('[data-folio-key], [data-folio-form]');
