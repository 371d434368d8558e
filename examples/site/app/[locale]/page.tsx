import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Site } from '../../components/site';
import { bakedPage } from '../../lib/baked';
import { DEFAULT_LOCALE, isLocale, LOCALES, pathOf } from '../../lib/locales';

/** The home page's Folio page id, the same in every language. */
const PAGE_ID = '/';

/** Search engines learn the page's other languages. */
export function generateMetadata(): Metadata {
  return {
    alternates: {
      languages: {
        ...Object.fromEntries(LOCALES.map((code) => [code, pathOf(code, PAGE_ID)])),
        'x-default': pathOf(DEFAULT_LOCALE, PAGE_ID),
      },
    },
  };
}

/**
 * The home page in one language. Prerendered by `next build` for each language: from the snapshot the
 * build baked for it (`npm run build:site` bakes first), or, without one, as the shell the browser
 * fills from Folio. In development, rendered per request.
 */
export default async function HomePage({ params }: { params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  return <Site locale={locale} pageId={PAGE_ID} baked={await bakedPage(PAGE_ID, locale)} />;
}
