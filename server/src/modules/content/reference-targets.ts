import type { DbOrTx } from '../../db/database.js';
import { declarationsOf } from '../definitions/index.js';
import * as repo from './content.repository.js';
import type { Fields } from './content.service.js';
import type { LoadTargets } from './references.js';

/**
 * Where resolution (references.ts) reads its targets: one query per level, in chunks of ids. A
 * visitor sees an entry's published copy (none: the reference reads as missing); a preview token
 * or a session that asks `?resolve=true` sees its working copy (contract §13).
 */
export const referenceTargets =
  (db: DbOrTx, projectId: string, copy: 'published' | 'working'): LoadTargets =>
  async (ids) =>
    (await repo.entriesByIds(db, projectId, ids)).map((r) => {
      const text = copy === 'published' ? r.publishedFields : r.fields;
      return {
        id: r.id,
        pageId: r.pageId,
        instanceKey: r.instanceKey,
        componentId: r.componentId,
        fields: text === null ? null : (JSON.parse(text) as Fields),
        // The stored text's length is the budget's measure (references.ts): counted, never re-serialised.
        bytes: text === null ? 0 : Buffer.byteLength(text),
        declared: declarationsOf(r.declaredFields),
      };
    });
