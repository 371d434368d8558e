import { type Locale, pathOf } from '../lib/locales';

/**
 * Field values come from editors: a site renders what fits and ignores the rest, never throws.
 */

/** An `image` field holds a URL, a media id or `{ url }`; a media id alone cannot be shown here. */
export function imageUrl(value: unknown): string | undefined {
  const url = typeof value === 'object' && value !== null ? (value as { url?: unknown }).url : value;
  return typeof url === 'string' && /^(https?:\/\/|\/)/.test(url) ? url : undefined;
}

/**
 * A Folio media address asks Folio for a resized variant (`?w=&h=&fit=`, made once and cached by
 * Folio); any other address is left as it is. Folio's own variants rather than next/image: its
 * optimizer would fetch the image from Folio at request time, which a baked build must not need.
 */
export function sized(url: string, size: { w: number; h?: number }): string {
  if (!/\/media\/[^/]+\/[^/?#]+\.[a-z0-9]+$/i.test(url)) return url;
  return `${url}?w=${size.w}${size.h ? `&h=${size.h}&fit=cover` : ''}`;
}

/**
 * The items of a `list` field: only objects, each with a `_key` (Folio gives every item one; an item
 * without one, from a value written before the field was a list, gets its index).
 */
export function items<T extends { _key: string }>(value: readonly T[] | undefined): T[] {
  if (!Array.isArray(value)) return [];
  return (value as unknown[]).flatMap((item, index) =>
    typeof item === 'object' && item !== null
      ? [{ ...(item as T), _key: typeof (item as T)._key === 'string' ? (item as T)._key : String(index) }]
      : [],
  );
}

/** An address a visitor may follow: http(s), mailto, tel, a path or an anchor; nothing else. */
export function safeHref(value: unknown): string | undefined {
  return typeof value === 'string' && /^(https?:|mailto:|tel:|\/|#)/i.test(value) ? value : undefined;
}

/**
 * Where a `link` field goes: `{ pageId }` is a page of the site, in the reader's language
 * (`/` in French is `/fr`); `{ href }` an address as written (an anchor, a URL).
 */
export function hrefOf(value: unknown, locale: Locale): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { pageId, href } = value as { pageId?: unknown; href?: unknown };
  if (typeof pageId === 'string' && pageId.startsWith('/')) return pathOf(locale, pageId);
  return safeHref(href);
}

/** A price as the shop shows it, or nothing when the field is not a number. */
export function price(value: unknown, currency: unknown, locale: string): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'EUR';
  return new Intl.NumberFormat(locale, { style: 'currency', currency: code }).format(value);
}
