import type { FolioClient, Schemas } from '@folio/client';
import { call } from '../api.js';
import { sameJson } from '../canonical.js';
import type { ExportedObjects } from './format.js';
import type { Rewriter } from './media-refs.js';

type ObjectRecord = Schemas['ObjectRecord'];
type SaveObject = Schemas['SaveObject'];

/** Save requests stay well under the API's limits (1,000 objects, a 5 MiB body by default). */
const MAX_OBJECTS_PER_SAVE = 500;
const MAX_BYTES_PER_SAVE = 1024 * 1024;

/**
 * Objects in two passes: every published object saved `published` (its published values), then each
 * object whose draft overlay differs from that — or that was never published — saved as a draft with
 * its draft values. A collection the draft emptied is sent empty, so the draft has no items there
 * while the published view keeps its own. Field paths are sent as they were read (`seo.title`), which
 * the save stores as the same paths.
 */
export async function importObjects(
  context: { url: string; member: FolioClient; rewriter: Rewriter },
  objects: ExportedObjects,
): Promise<{ published: number; drafts: number }> {
  const published = new Map(objects.published.map((o) => [keyOf(o), o]));
  const drafts: SaveObject[] = [];
  for (const draft of objects.draft) {
    const live = published.get(keyOf(draft));
    if (live && sameJson(live.fields, draft.fields) && sameJson(live.collections, draft.collections))
      continue;
    const collections = { ...draft.collections };
    for (const name of Object.keys(live?.collections ?? {})) collections[name] ??= [];
    drafts.push(saveObjectOf({ ...draft, collections }));
  }
  await saveAll(context, objects.published.map(saveObjectOf), 'published');
  await saveAll(context, drafts, 'draft');
  return { published: objects.published.length, drafts: drafts.length };

  function saveObjectOf(o: Pick<ObjectRecord, 'type' | 'id' | 'fields' | 'collections'>): SaveObject {
    return {
      type: o.type,
      id: o.id,
      fields: context.rewriter.rewrite(o.fields),
      collections: context.rewriter.rewrite(o.collections),
    };
  }
}

const keyOf = (o: { type: string; id: string }) => `${o.type}\u0000${o.id}`;

async function saveAll(
  context: { url: string; member: FolioClient },
  objects: SaveObject[],
  status: 'draft' | 'published',
): Promise<void> {
  let batch: SaveObject[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const body = { status, objects: batch };
    await call(context.url, `save ${batch.length} ${status} objects`, () =>
      context.member.POST('/v1/objects/save', { body }),
    );
    batch = [];
    bytes = 0;
  };
  for (const object of objects) {
    const size = JSON.stringify(object).length;
    if (batch.length >= MAX_OBJECTS_PER_SAVE || (batch.length > 0 && bytes + size > MAX_BYTES_PER_SAVE)) {
      await flush();
    }
    batch.push(object);
    bytes += size;
  }
  await flush();
}
