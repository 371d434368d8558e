import { markOf, placeOf } from './stega.js';

/**
 * Outlines and clicks in the site's page during a session. Components and their list items and blocks
 * are found by the stega marks in their text (./stega.ts): each marked text node names its entry and
 * where the value sits (`features[_key=a].title`); a component's (or an item's) element is the nearest
 * sectioning element (header, section, article, li…) holding all its marked text and no other's,
 * else the smallest element holding all its marked text. Keyed by `_key`, so an item keeps its
 * element through a reorder. An item that renders none of its text cannot be found. A MutationObserver rescans when the page
 * changes (a draft re-renders it, a list grows).
 *
 * Styles go through the CSSOM (`element.style.outline`), never an injected <style>: a site whose
 * Content-Security-Policy has no 'unsafe-inline' in style-src blocks a <style> element and a style
 * attribute in markup, but not a property set from script. The element's own outline is put back when
 * the outline moves away.
 */
const HOVER = '2px dashed #2563eb';
const CHOSEN = '2px solid #7c3aed';
const SECTIONS = new Set(['HEADER', 'SECTION', 'ARTICLE', 'ASIDE', 'FOOTER', 'NAV', 'LI', 'FIGURE', 'FORM']);
const MARKS = /\u2063(?:[\u200b-\u200d\u2060]{4})+/g;

/** What a region shows: an entry (`path` null) or one of its list items or blocks (`path` by `_key`). */
interface Target {
  entryId: string;
  path: string | null;
}

export interface Overlay {
  /**
   * Outlines what the editor has open: the component of this entry, or the item `path` points into
   * (a field's path outlines its item); none for null.
   */
  highlight(entryId: string | null, path: string | null): void;
}

/** `features[_key=a].title` → its items' paths, outermost first: [`features[_key=a]`]. */
function itemsOf(path: string): string[] {
  const out: string[] = [];
  for (const found of path.matchAll(/\[_key=[^\]]*\]/g))
    out.push(path.slice(0, found.index + found[0].length));
  return out;
}

const idOf = (t: Target) => `${t.entryId}|${t.path ?? ''}`;

export function startOverlay(
  document: Document,
  select: (entryId: string, path: string | null) => void,
): Overlay {
  /** Each component's or item's element → what it shows; the deepest wins an element both claim. */
  let regions = new Map<Element, Target>();
  let byTarget = new Map<string, Element>();
  let hovered: Element | null = null;
  let highlighted: Target | null = null;
  /** Elements outlined now, with the outline they had before. */
  const painted = new Map<HTMLElement, [string, string]>();

  /**
   * The element of a target: the smallest one holding all its marked text, then the nearest
   * sectioning element above it (header, section, li…) that holds no other target's text.
   * `marked` counts the marked text nodes under each element.
   */
  function regionOf(own: Element[], marked: Map<Element, number>): Element {
    let region = own[0] as Element;
    while (!own.every((element) => region.contains(element)) && region.parentElement) {
      region = region.parentElement;
    }
    for (let up: Element | null = region; up && up !== document.body; up = up.parentElement) {
      if ((marked.get(up) ?? 0) > own.length) break;
      if (SECTIONS.has(up.tagName)) return up;
    }
    return region;
  }

  function scan(): void {
    /** Target id → the target and the elements of its marked text nodes (one per node). */
    const found = new Map<string, { target: Target; own: Element[] }>();
    const marked = new Map<Element, number>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const payload = markOf(node.nodeValue ?? '');
      const parent = node.parentElement;
      if (!payload || !parent) continue;
      for (let up: Element | null = parent; up; up = up.parentElement)
        marked.set(up, (marked.get(up) ?? 0) + 1);
      const { entryId, path } = placeOf(payload);
      for (const target of [
        { entryId, path: null },
        ...itemsOf(path ?? '').map((item) => ({ entryId, path: item })),
      ]) {
        const id = idOf(target);
        const held = found.get(id);
        if (held) held.own.push(parent);
        else found.set(id, { target, own: [parent] });
      }
    }
    const next = new Map<Element, Target>();
    const nextByTarget = new Map<string, Element>();
    // Outermost first, so an item's element replaces its entry's when both are the same element.
    const depth = (t: Target) => (t.path === null ? 0 : itemsOf(t.path).length);
    for (const { target, own } of [...found.values()].sort((a, b) => depth(a.target) - depth(b.target))) {
      const region = regionOf(own, marked);
      next.set(region, target);
      nextByTarget.set(idOf(target), region);
    }
    // Elements the site marked itself (`editAttributes`: an item that renders no text): theirs, as given.
    for (const element of document.querySelectorAll('[data-folio-place]')) {
      const target = placeOf(element.getAttribute('data-folio-place') ?? '');
      if (!target.entryId) continue;
      next.set(element, target);
      nextByTarget.set(idOf(target), element);
    }
    regions = next;
    byTarget = nextByTarget;
    if (hovered && !regions.has(hovered)) hovered = null;
    paint();
  }

  /** The element of what the editor has open: its item's, else its entry's. */
  function highlightedElement(): Element | undefined {
    if (!highlighted) return undefined;
    const { entryId, path } = highlighted;
    const items = itemsOf(path ?? '');
    for (let i = items.length - 1; i >= 0; i--) {
      const element = byTarget.get(idOf({ entryId, path: items[i] ?? null }));
      if (element) return element;
    }
    return byTarget.get(idOf({ entryId, path: null }));
  }

  function paint(): void {
    const wanted = new Map<HTMLElement, string>();
    const chosen = highlightedElement();
    if (chosen instanceof HTMLElement) wanted.set(chosen, CHOSEN);
    if (hovered instanceof HTMLElement && !wanted.has(hovered)) wanted.set(hovered, HOVER);
    for (const [element, [outline, offset]] of painted) {
      if (wanted.has(element)) continue;
      element.style.outline = outline;
      element.style.outlineOffset = offset;
      painted.delete(element);
    }
    for (const [element, outline] of wanted) {
      if (!painted.has(element)) painted.set(element, [element.style.outline, element.style.outlineOffset]);
      element.style.outline = outline;
      element.style.outlineOffset = '-2px';
    }
  }

  /** The deepest component or item under an element, if any. */
  function regionAt(target: EventTarget | null): Element | null {
    for (let element = target instanceof Element ? target : null; element; element = element.parentElement) {
      if (regions.has(element)) return element;
    }
    return null;
  }

  /**
   * Where a click points: the field whose text was clicked when the clicked element shows one field's
   * text only, inside the region's item (or entry); else the region's item itself.
   */
  function pathAt(clicked: EventTarget | null, region: Target): string | null {
    const text = clicked instanceof Element ? (clicked.textContent ?? '') : '';
    const places = new Set([...text.matchAll(MARKS)].map((found) => markOf(found[0])));
    if (places.size !== 1) return region.path;
    const place = placeOf([...places][0] ?? '');
    const inside =
      place.entryId === region.entryId &&
      place.path !== null &&
      (region.path === null || place.path.startsWith(`${region.path}.`));
    return inside ? place.path : region.path;
  }

  document.addEventListener(
    'mouseover',
    (event) => {
      hovered = regionAt(event.target);
      paint();
    },
    true,
  );
  document.addEventListener(
    'mouseout',
    (event) => {
      if (event.relatedTarget === null) {
        hovered = null;
        paint();
      }
    },
    true,
  );
  // Capture: before the site's own handlers and a link's navigation. In preview a click on a component
  // selects it; it does not follow its link or run its button.
  document.addEventListener(
    'click',
    (event) => {
      const region = regionAt(event.target);
      const target = region && regions.get(region);
      if (!target) return;
      event.preventDefault();
      event.stopPropagation();
      select(target.entryId, pathAt(event.target, target));
    },
    true,
  );
  new MutationObserver(scan).observe(document.body, {
    childList: true,
    subtree: true,
    characterData: true,
    attributeFilter: ['data-folio-place'],
  });
  scan();

  return {
    highlight(entryId, path) {
      highlighted = entryId === null ? null : { entryId, path };
      paint();
    },
  };
}
