import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bakedObjects, createFolio, type FolioObject, type PageEntry, type Snapshot } from '@folio/sdk';
import { ALL_COMPONENTS, SITE_PAGE } from './components';
import { DEFAULT_LOCALE, type Locale } from './locales';

/** What a page renders from when the build baked snapshots: its entries and @site's, and the products. */
export interface BakedPage {
  version: string;
  /** Entries by page id (the page's and `@site`'s), references resolved as a visitor's read has them. */
  pages: Record<string, PageEntry[]>;
  products: FolioObject[];
}

/** Where `npm run bake` writes the snapshot (`folio bake --out .folio/snapshot.json`). */
export const SNAPSHOT_FILE = join(process.cwd(), '.folio', 'snapshot.json');

/** A snapshot of every language (`GET /v1/snapshot?locale=*`, contract §14: `schema: 2`). */
interface EveryLocale extends Omit<Snapshot, 'content' | 'schema'> {
  schema: 2;
  defaultLocale: string;
  locales: Record<string, Snapshot['content']>;
}

type Baked = Snapshot | EveryLocale;

async function readJson(file: string): Promise<Baked | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Baked;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * One language's snapshot (contract §14: content resolved with fallback, `locale` added), from what the
 * bake wrote: the document of every language (`locales: { [code]: content }`), or that language's own
 * file. A snapshot of a project without languages (no `locale`) is the default language's.
 */
export async function bakedSnapshot(locale: Locale): Promise<Snapshot | undefined> {
  const own = await readJson(SNAPSHOT_FILE.replace(/\.json$/, `.${locale}.json`));
  const baked = own ?? (await readJson(SNAPSHOT_FILE));
  if (!baked) return undefined;
  if ('locales' in baked && baked.locales && typeof baked.locales === 'object') {
    const content = baked.locales[locale];
    if (!content) return undefined;
    const { locales: _, defaultLocale: __, ...rest } = baked;
    return { ...rest, schema: 1, content, locale } as Snapshot;
  }
  const single = baked as Snapshot & { locale?: string };
  const itsLocale = single.locale ?? DEFAULT_LOCALE;
  return itsLocale === locale ? single : undefined;
}

/**
 * Read at build time, when Next prerenders a page: the page's part of the snapshot the build baked in
 * this language, or undefined, and the page then reads Folio live in the browser. Undefined in
 * development (always live there), when there is no file (the bake found the project's baking off,
 * `bakeEnabled: false`, and wrote none), and when the file itself says baking is off (the SDK's kill
 * switch, checked here too). References are resolved here as a visitor's read resolves them (the SDK's
 * baked mode, with the site's declarations): the testimonials of `@site` in this language.
 */
export async function bakedPage(pageId: string, locale: Locale): Promise<BakedPage | undefined> {
  if (process.env.NODE_ENV === 'development') return undefined;
  const snapshot = await bakedSnapshot(locale);
  if (!snapshot?.bakeEnabled) return undefined;
  const folio = createFolio({ url: 'http://baked.invalid', key: '', snapshot, components: ALL_COMPONENTS });
  const [page, site] = await Promise.all([folio.page(pageId), folio.page(SITE_PAGE)]);
  return {
    version: snapshot.version,
    pages: { [pageId]: page, [SITE_PAGE]: site },
    products: bakedObjects(snapshot, ['product']),
  };
}
