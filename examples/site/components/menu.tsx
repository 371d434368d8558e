'use client';

import { useFolio } from '@folio/react';
import { Menu as MenuComponent } from '../lib/components';
import type { Locale } from '../lib/locales';
import { hrefOf, items } from './values';

/** The site's navigation: the `menu` entry of `@site`, its items one list per language. */
export function Menu({ locale }: { locale: Locale }) {
  const { items: value } = useFolio('menu', MenuComponent);
  const links = items(value).flatMap((item) => {
    const href = hrefOf(item.link, locale);
    return typeof item.label === 'string' && item.label !== '' && href
      ? [{ key: item._key, label: item.label, href }]
      : [];
  });
  if (links.length === 0) return null;
  return (
    <nav className="menu" aria-label="Main">
      <ul>
        {links.map((link) => (
          <li key={link.key}>
            <a href={link.href}>{link.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
