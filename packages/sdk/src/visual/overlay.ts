import { markOf } from './stega.js';

/**
 * Outlines and clicks in the site's page during a session. Components are found by the stega marks in
 * their text (./stega.ts): each marked text node names its entry; a component's element is the nearest
 * sectioning element (header, section, article…) holding all its marked text and no other entry's,
 * else the smallest element holding all its marked text. A MutationObserver rescans when the page
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

export interface Overlay {
  /** Outlines the component of this entry (the form the editor has open), or none. */
  highlight(entryId: string | null): void;
}

export function startOverlay(document: Document, select: (entryId: string) => void): Overlay {
  /** Each component's element → its entry id. */
  let regions = new Map<Element, string>();
  let hovered: Element | null = null;
  let highlighted: string | null = null;
  /** Elements outlined now, with the outline they had before. */
  const painted = new Map<HTMLElement, [string, string]>();

  function regionOf(own: Element[], others: Element[]): Element {
    let region = own[0] as Element;
    while (!own.every((element) => region.contains(element)) && region.parentElement) {
      region = region.parentElement;
    }
    for (let up: Element | null = region; up && up !== document.body; up = up.parentElement) {
      if (others.some((element) => up?.contains(element))) break;
      if (SECTIONS.has(up.tagName)) return up;
    }
    return region;
  }

  function scan(): void {
    const found = new Map<string, Element[]>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const id = markOf(node.nodeValue ?? '');
      if (id && node.parentElement) found.set(id, [...(found.get(id) ?? []), node.parentElement]);
    }
    const next = new Map<Element, string>();
    for (const [id, own] of found) {
      const others = [...found].flatMap(([other, elements]) => (other === id ? [] : elements));
      next.set(regionOf(own, others), id);
    }
    regions = next;
    if (hovered && !regions.has(hovered)) hovered = null;
    paint();
  }

  function paint(): void {
    const wanted = new Map<HTMLElement, string>();
    for (const [element, id] of regions) {
      if (id === highlighted && element instanceof HTMLElement) wanted.set(element, CHOSEN);
    }
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

  /** The component under an element, if any. */
  function regionAt(target: EventTarget | null): Element | null {
    for (let element = target instanceof Element ? target : null; element; element = element.parentElement) {
      if (regions.has(element)) return element;
    }
    return null;
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
      const id = region && regions.get(region);
      if (!id) return;
      event.preventDefault();
      event.stopPropagation();
      select(id);
    },
    true,
  );
  new MutationObserver(scan).observe(document.body, { childList: true, subtree: true, characterData: true });
  scan();

  return {
    highlight(entryId) {
      highlighted = entryId;
      paint();
    },
  };
}
