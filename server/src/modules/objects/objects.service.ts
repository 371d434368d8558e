import type { Db } from '../../db/database.js';
import { type ChangeBus, TOPICS } from '../../db/dialect/change-bus.js';
import { actorLabel, type Outbox } from '../../outbox/index.js';
import { type CachedJson, cachedJson } from '../../shared/cached-json.js';
import { forbidden, notFound, validationFailed } from '../../shared/errors.js';
import { MemoCache } from '../../shared/memo-cache.js';
import type { ActivityActor, Credential } from '../../shared/principals.js';
import { randomToken } from '../../shared/secrets.js';
import { isoNow } from '../../shared/time.js';
import { LIMITS } from './objects.limits.js';
import { planSave, type SaveInput } from './objects.plan.js';
import * as repo from './objects.repository.js';
import type { ObjectFieldRow, ObjectItemRow } from './objects.table.js';
import { buildOverlay, type ObjectView } from './objects.view.js';

export interface SaveResult {
  status: 'draft' | 'published' | 'mixed';
  objects: number;
  fields: { inserted: number; updated: number };
  items: { inserted: number; updated: number; removed: number };
}

/** `changes`: a published save changes the snapshot, whose per-instance caches must be dropped. */
export function createObjectsService(db: Db, outbox: Outbox, changes: ChangeBus) {
  const { enqueueEvent, recordActivity } = outbox;
  // The published view, serialised, per (project, types): what sites read at run time. Dropped on
  // every instance by a published save (topic `snapshot`, keyed by project); bounded in bytes.
  const published = new MemoCache<CachedJson>(changes, (v) => v.body.length + 200, 32 * 1024 * 1024);
  changes.subscribe((topic, projectId) => {
    if (topic === TOPICS.snapshot) published.deleteWhere((key) => key.startsWith(`${projectId}\u0000`));
  });

  async function readViews(projectId: string, types: string[] | null, draft: boolean): Promise<ObjectView[]> {
    const [objects, fields, items] = await repo.viewRows(db, { projectId, types, draft });
    return buildOverlay(objects, fields, items, draft);
  }

  /** The key is `<projectId>\0<sorted types, comma-separated, or *>`. */
  async function loadPublished(key: string): Promise<CachedJson> {
    const [projectId = '', list = '*'] = key.split('\u0000');
    const views = await readViews(projectId, list === '*' ? null : list.split(','), false);
    return cachedJson(Buffer.from(JSON.stringify({ data: views, error: null })));
  }

  return {
    /** Hits and misses of the published view cache, for /metrics. */
    cacheCounts: () => ({ objects: published.counts }),

    /**
     * One transaction, a fixed handful of batched statements: lock/create the objects (sorted),
     * upsert fields, upsert items, drop the items each sent collection no longer has, and write
     * the objects.published event with the change.
     */
    async save(projectId: string, input: SaveInput, actor: ActivityActor): Promise<SaveResult> {
      const plan = planSave(input);
      const saveId = randomToken('', 12);
      const objectKeys = plan.objects.map((o) => ({ type: o.type, objectId: o.id, published: o.published }));
      const fieldRows: ObjectFieldRow[] = [];
      const itemRows: ObjectItemRow[] = [];
      const touched = { draft: [] as repo.CollectionKey[], published: [] as repo.CollectionKey[] };
      for (const o of plan.objects) {
        for (const f of o.fields) {
          fieldRows.push({
            projectId,
            type: o.type,
            objectId: o.id,
            path: f.path,
            draftValue: f.value,
            publishedValue: o.published ? f.value : null,
          });
        }
        for (const c of o.collections) {
          touched[o.published ? 'published' : 'draft'].push({
            type: o.type,
            objectId: o.id,
            collection: c.name,
          });
          c.items.forEach((item, position) => {
            itemRows.push({
              projectId,
              type: o.type,
              objectId: o.id,
              collection: c.name,
              itemId: item.itemId,
              draftValue: item.value,
              draftPosition: position,
              publishedValue: o.published ? item.value : null,
              publishedPosition: o.published ? position : null,
              saveId,
            });
          });
        }
      }
      const allTouched = [...touched.draft, ...touched.published];

      const published = plan.objects.filter((o) => o.published).map((o) => ({ type: o.type, id: o.id }));
      const result = await db.transaction().execute(async (trx) => {
        await repo.upsertObjects(trx, projectId, objectKeys, isoNow());

        const fieldsBefore = fieldRows.length > 0 ? await repo.countFields(trx, projectId, objectKeys) : 0;
        await repo.upsertFields(trx, fieldRows);
        const fieldsAfter = fieldRows.length > 0 ? await repo.countFields(trx, projectId, objectKeys) : 0;

        const itemsBefore = allTouched.length > 0 ? await repo.countItems(trx, projectId, allTouched) : 0;
        await repo.upsertItems(trx, itemRows);
        const itemsAfter = allTouched.length > 0 ? await repo.countItems(trx, projectId, allTouched) : 0;
        let removed = 0;
        if (touched.published.length > 0)
          removed += await repo.removeUnsentItems(trx, projectId, touched.published, saveId, true);
        if (touched.draft.length > 0)
          removed += await repo.removeUnsentItems(trx, projectId, touched.draft, saveId, false);

        if (published.length > 0) {
          await enqueueEvent(trx, projectId, 'objects.published', {
            types: [...new Set(published.map((o) => o.type))],
            objects: published,
          });
          // Delivered to other instances on commit (PostgreSQL), never for a rolled-back save.
          await changes.notify(trx, TOPICS.snapshot, projectId);
        }

        // One record per object, so `?targetId=type/id` finds every save of it.
        const who = actorLabel(actor);
        await recordActivity(
          trx,
          projectId,
          actor,
          plan.objects.map((o) => ({
            action: 'objects.saved' as const,
            target: { type: 'object' as const, id: `${o.type}/${o.id}` },
            summary: `${who} saved ${o.type} ${o.id}${o.published ? ' and published it' : ' as a draft'}.`,
          })),
        );

        const fieldsInserted = fieldsAfter - fieldsBefore;
        const itemsInserted = itemsAfter - itemsBefore;
        return {
          status: plan.status,
          objects: plan.objects.length,
          fields: { inserted: fieldsInserted, updated: fieldRows.length - fieldsInserted },
          items: { inserted: itemsInserted, updated: itemRows.length - itemsInserted, removed },
        };
      });
      // Read-your-writes on this instance without waiting for the notification round trip.
      if (published.length > 0) changes.deliverLocal(TOPICS.snapshot, projectId);
      return result;
    },

    /**
     * Removes the object's draft and published rows. When it was published, an `objects.deleted`
     * event (webhooks, deploy hooks) is written in the same transaction, and the published view and
     * the snapshot are dropped on every instance.
     */
    async remove(
      projectId: string,
      type: string,
      id: string,
      actor: ActivityActor,
    ): Promise<{ type: string; id: string; deleted: true }> {
      const row = await db.transaction().execute(async (trx) => {
        const deleted = await repo.deleteObject(trx, projectId, { type, objectId: id });
        if (!deleted) throw notFound('Object');
        if (deleted.publishedAt !== null) {
          await enqueueEvent(trx, projectId, 'objects.deleted', { objects: [{ type, id }] });
          await changes.notify(trx, TOPICS.snapshot, projectId);
        }
        await recordActivity(trx, projectId, actor, {
          action: 'objects.deleted',
          target: { type: 'object', id: `${type}/${id}` },
          summary: `${actorLabel(actor)} deleted ${type} ${id}.`,
        });
        return deleted;
      });
      if (row.publishedAt !== null) changes.deliverLocal(TOPICS.snapshot, projectId);
      return { type, id, deleted: true };
    },

    /** The working copy of every object (drafts included); never cached. */
    async draftView(
      projectId: string,
      types: string | undefined,
      via: Credential | null,
    ): Promise<ObjectView[]> {
      if (via === 'publishableKey') {
        throw forbidden('Drafts need a session or a secret API key, not the publishable key.');
      }
      return readViews(projectId, types ? parseTypes(types) : null, true);
    },

    /** The published view as the bytes of its envelope, with an ETag; cached until the next published save. */
    publishedView(projectId: string, types: string | undefined): Promise<CachedJson> {
      const list = types ? parseTypes(types).sort() : null;
      return published.getOrLoad(`${projectId}\u0000${list ? list.join(',') : '*'}`, loadPublished);
    },
  };
}

function parseTypes(raw: string): string[] {
  const types = [
    ...new Set(
      raw
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  const bad = types.filter((t) => t.length > LIMITS.typeLength || !/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(t));
  if (types.length === 0 || types.length > LIMITS.typesPerQuery || bad.length > 0) {
    throw validationFailed('The types query is not valid.', [
      {
        path: 'querystring.types',
        message: `must be 1 to ${LIMITS.typesPerQuery} comma-separated object types${bad.length ? ` (bad: ${bad.slice(0, 5).join(', ')})` : ''}`,
      },
    ]);
  }
  return types;
}

export type ObjectsService = ReturnType<typeof createObjectsService>;
