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

export interface Feature {
  title: string;
  text?: string;
}

/** `[{ title, text? }]` from a JSON field; items without a title are skipped. */
export function featureItems(value: unknown): Feature[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const { title, text } = (item ?? {}) as { title?: unknown; text?: unknown };
    if (typeof title !== 'string' || title === '') return [];
    return [{ title, ...(typeof text === 'string' && { text }) }];
  });
}

/** A price as the shop shows it, or nothing when the field is not a number. */
export function price(value: unknown, currency: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'EUR';
  return new Intl.NumberFormat('en', { style: 'currency', currency: code }).format(value);
}
