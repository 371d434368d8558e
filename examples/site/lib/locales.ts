/**
 * The site's languages: its routes (`/en`, `/fr`, `/fr-CA`), its language switcher, and the project's
 * `locales` setting (contract §14) that `npm run seed` writes. Canadian French falls back to French,
 * French to English: a text not translated yet reads from the next language of its chain.
 */
export const LOCALES = ['en', 'fr', 'fr-CA'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language's name in itself, as a switcher shows it. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  fr: 'Français',
  'fr-CA': 'Français (Canada)',
};

/** The project's setting (PATCH /v1/projects/:id `{ locales }`): every chain ends at the default. */
export const PROJECT_LOCALES = {
  default: DEFAULT_LOCALE,
  available: [{ code: 'en' }, { code: 'fr', fallback: 'en' }, { code: 'fr-CA', fallback: 'fr' }],
};

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/**
 * The site's address of a Folio page in a language: `/` in French is `/fr`, `/about` is `/fr/about`.
 * Page ids are the same in every language (Folio's pages are not localized; their fields are).
 */
export function pathOf(locale: Locale, pageId: string): string {
  return pageId === '/' ? `/${locale}` : `/${locale}${pageId}`;
}
