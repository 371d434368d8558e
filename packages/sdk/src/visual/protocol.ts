/**
 * The visual-editing bridge's messages, typed once for both ends: this SDK (the site, ./bridge.ts and
 * ./session.ts) and Folio's dashboard (dashboard/src/features/preview/lib/bridge.ts), which imports these
 * types with `import type` and so carries none of the SDK's code. Types only: nothing here exists at
 * run time, and the SDK keeps no dependency beyond the generated client.
 *
 * Every message is a plain object `{ folio: 'bridge', v: BridgeVersion, type, … }` sent with
 * `postMessage` to one named origin (never '*'). A change that an older end could misread bumps
 * `BridgeVersion`: both ends write the literal, so the dashboard's build fails until it follows. Adding
 * an optional field that an older end may ignore (as `path` was added to `select` and `highlight`)
 * keeps the version.
 *
 * Languages: the pane shows the locale the preview URL names (`{locale}`, filled in by the dashboard,
 * which reloads the frame when the editor switches); a `draft` names the locale its form edits, and
 * the site applies only those of the locale its entries are read in (older dashboards send none: such
 * a draft applies as before, whatever the locale).
 */
export type BridgeVersion = 1;

/**
 * Where a value sits inside an entry's fields, items named by their `_key`, never by index, so a
 * reorder made meanwhile on either end does not point at another item: `title`,
 * `features[_key=k2Jd8sLq0aBc].title`, `sections[_key=x].slides[_key=y]` (an item itself).
 */
export type ItemPath = string;

interface Envelope {
  folio: 'bridge';
  v: BridgeVersion;
}

/** Site → dashboard. */
export type SiteMessage = Envelope &
  (
    | { type: 'hello'; pageId: string }
    | { type: 'ready'; pageId: string }
    /**
     * The editor clicked a component in the page. `path`, when the click was inside a list item, a
     * block or a field the site could tell: the dashboard opens that item (expanding it and its
     * containers), scrolls to it and puts the cursor in that field, else the item's first.
     */
    | { type: 'select'; entryId: string; path?: ItemPath }
  );

/** Dashboard → site. */
export type EditorMessage = Envelope &
  (
    | { type: 'init'; previewToken: string; pageId: string }
    /**
     * The entry's whole `fields` as the editor has them now, nested items included, unsaved; `locale`:
     * the locale they are of (a project with locales), absent otherwise.
     */
    | { type: 'draft'; entryId: string; fields: Record<string, unknown>; locale?: string }
    /** The form the editor is in (null: none), and the item or field inside it (`path`), to outline. */
    | { type: 'highlight'; entryId: string | null; path?: ItemPath | null }
  );

export type BridgeMessage = SiteMessage | EditorMessage;

/** A message without its envelope: what one end hands its `post`. */
export type MessageBody<M extends BridgeMessage> = M extends unknown ? Omit<M, 'folio' | 'v'> : never;
