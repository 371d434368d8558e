'use client';

import { useFolio } from '@folio/react';
import { Footer as FooterComponent } from '../lib/components';
import type { Locale } from '../lib/locales';
import { hrefOf, items } from './values';

/** The footer: the `footer` entry of `@site` (a text and links, both per language). */
export function Footer({ locale }: { locale: Locale }) {
  const { text, links: value } = useFolio('footer', FooterComponent);
  const links = items(value).flatMap((item) => {
    const href = hrefOf(item.link, locale);
    return typeof item.label === 'string' && item.label !== '' && href
      ? [{ key: item._key, label: item.label, href }]
      : [];
  });
  return (
    <footer className="footer">
      {text && <p>{text}</p>}
      {links.length > 0 && (
        <nav aria-label="Footer">
          <ul>
            {links.map((link) => (
              <li key={link.key}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </footer>
  );
}
