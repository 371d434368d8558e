import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  bakedObjects,
  createFolio,
  type FolioObject,
  type PageEntry,
  type Snapshot,
  type SnapshotAll,
} from '@folio/sdk';
import { ALL_COMPONENTS, SITE_PAGE } from './components';
import { DEFAULT_LOCALE, type Locale } from './locales';

/** What a page renders from when the build baked a snapshot: its entries and @site's, and the products. */
export interface BakedPage {
  version: string;
  /** Entries by page id (the page's and `@site`'s), references resolved as a visitor's read has them. */
  pages: Record<string, PageEntry[]>;
  products: FolioObject[];
}

/**
 * Where `npm run bake` writes the snapshot (`folio bake --out .folio/snapshot.json`): for a project with
 * languages, the document of every language (`GET /v1/snapshot?locale=*`); without, the one snapshot.
 */
export const SNAPSHOT_FILE = join(process.cwd(), '.folio', 'snapshot.json');

/**
 * Read at build time, when Next prerenders a page: the page's part of the snapshot the build baked, in
 * this language, or undefined, and the page then reads Folio live in the browser. Undefined in
 * development (always live there), when there is no file (the bake found the project's baking off,
 * `bakeEnabled: false`, and wrote none), and when the file itself says baking is off (the SDK's kill
 * switch, checked here too). The SDK's baked mode picks the language's content out of the file and
 * resolves references with the site's declarations, as a visitor's read resolves them: the
 * testimonials of `@site`, in this language. (A snapshot of a project without languages serves every
 * language: its English.)
 */
export async function bakedPage(pageId: string, locale: Locale): Promise<BakedPage | undefined> {
  if (process.env.NODE_ENV === 'development') return undefined;
  let snapshot: Snapshot | SnapshotAll;
  try {
    snapshot = JSON.parse(await readFile(SNAPSHOT_FILE, 'utf8')) as Snapshot | SnapshotAll;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!snapshot.bakeEnabled) return undefined;
  const folio = createFolio({
    url: 'http://baked.invalid', // never asked: every read below is served by the snapshot
    key: '',
    snapshot,
    components: ALL_COMPONENTS,
    ...(locale !== DEFAULT_LOCALE && { locale }),
  });
  const [page, site] = await Promise.all([folio.page(pageId), folio.page(SITE_PAGE)]);
  return {
    version: snapshot.version,
    pages: { [pageId]: page, [SITE_PAGE]: site },
    products: bakedObjects(snapshot, ['product']),
  };
}
