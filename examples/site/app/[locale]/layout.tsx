import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { isLocale, LOCALES } from '../../lib/locales';
import '../globals.css';

export const metadata: Metadata = {
  title: 'Folio example site',
  description: 'A site in three languages whose content is edited in Folio',
};

/** The languages are the site's (lib/locales.ts): each is prerendered; any other is a 404. */
export const dynamicParams = false;
export function generateStaticParams() {
  return LOCALES.map((locale) => ({ locale }));
}

/** The root layout of each language, so that `<html lang>` is the page's language. */
export default async function LocaleLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  return (
    <html lang={locale}>
      <body>{children}</body>
    </html>
  );
}
