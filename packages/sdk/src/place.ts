/**
 * Where a visual-editing session put a value: the SDK's session (./visual/session.ts) gives the entry's
 * `fields` and each list item, block and object it hands the site a hidden, non-enumerable property
 * naming its entry and path (`entryId:features[_key=a]`). Outside a session there is none. A registered
 * symbol (`Symbol.for`), so the session's lazy chunk and this main bundle share no module.
 */
const PLACE = Symbol.for('folio.place');

/**
 * The attribute that lets the dashboard's preview find an element that renders no text of its own (an
 * image-only slide, a logo): spread it on the element that shows the value, e.g.
 * `<li key={slide._key} {...editAttributes(slide)}>`. Items and components that render their text are
 * found without it. Outside the dashboard's pane it is `{}`: nothing is added to the markup.
 */
export function editAttributes(value: unknown): { 'data-folio-place'?: string } {
  const place =
    typeof value === 'object' && value !== null ? (value as { [PLACE]?: unknown })[PLACE] : undefined;
  return typeof place === 'string' ? { 'data-folio-place': place } : {};
}
