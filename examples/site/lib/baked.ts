import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bakedObjects, type FolioObject, type PageEntry, type Snapshot } from '@folio/sdk';

/** What a page renders from when the build baked a snapshot: its entries and its products. */
export interface BakedPage {
  version: string;
  entries: PageEntry[];
  products: FolioObject[];
}

/** Where `npm run bake` (`folio bake --out .folio/snapshot.json`) writes the snapshot. */
export const SNAPSHOT_FILE = join(process.cwd(), '.folio', 'snapshot.json');

/**
 * Read at build time, when Next prerenders the page: the page's part of the snapshot the build baked,
 * or undefined, and the page then reads Folio live in the browser. Undefined in development (always
 * live there), when there is no file (the bake found the project's baking off, `bakeEnabled: false`, and
 * wrote none), and when the file itself says baking is off (the SDK's kill switch, checked here too).
 */
export async function bakedPage(pageId: string): Promise<BakedPage | undefined> {
  if (process.env.NODE_ENV === 'development') return undefined;
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(await readFile(SNAPSHOT_FILE, 'utf8')) as Snapshot;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!snapshot.bakeEnabled) return undefined;
  return {
    version: snapshot.version,
    entries: snapshot.content[pageId] ?? [],
    products: bakedObjects(snapshot, ['product']),
  };
}
