'use client';

import { PREVIEW_PARAM } from '../lib/folio';
import { LANGUAGE_NAMES, LOCALES, type Locale, pathOf } from '../lib/locales';

/**
 * The same page in the site's other languages. Plain links (each language is its own prerendered page),
 * each named in its own language (`lang`, `hrefLang`) and the current one marked `aria-current`. A
 * preview (`?folio-preview=`) stays a preview in the other language.
 */
export function LanguageSwitcher({
  locale,
  pageId,
  previewToken,
}: {
  locale: Locale;
  pageId: string;
  previewToken?: string;
}) {
  const query = previewToken ? `?${PREVIEW_PARAM}=${encodeURIComponent(previewToken)}` : '';
  return (
    <nav className="languages" aria-label="Language">
      <ul>
        {LOCALES.map((code) => (
          <li key={code}>
            <a
              href={`${pathOf(code, pageId)}${query}`}
              lang={code}
              hrefLang={code}
              aria-current={code === locale ? 'page' : undefined}
            >
              {LANGUAGE_NAMES[code]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
