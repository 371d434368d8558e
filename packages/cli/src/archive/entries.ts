import type { FolioClient, Schemas } from '@folio/client';
import { call } from '../api.js';
import { sameJson } from '../canonical.js';
import { CommandError } from '../io.js';
import type { ExportedEntry } from './format.js';
import { entryRewrite, type Rewrite, type Rewriter, rewriter } from './media-refs.js';

type Fields = Record<string, unknown>;

/**
 * Entries into a project whose definitions were just synced (their stubs exist). The API cannot write
 * history rows, ids or times, so history is replayed: each exported publish is made again (the working
 * copy set to its fields, then published) and each unpublish again, oldest first; then the entry is
 * brought to its exported published copy and working copy. The new history therefore has the same
 * publishes in the same order, made by the importing user at the time of the import (the original
 * actors and times stay in entries.json). Without history (`--skip-history`) only the end state is made.
 *
 * Every stub is read before any value is written, so each exported entry's new id is known and a
 * reference to it, wherever it is written (an entry earlier in the file, a list item), is rewritten.
 */
export interface EntryImport {
  url: string;
  /** A session with the project's key (the content routes). */
  editor: FolioClient;
  /** Rewrites of strings in values (media addresses); entry ids are added here. */
  rewrites: Rewrite[];
  replayHistory: boolean;
}

interface Context {
  url: string;
  editor: FolioClient;
  rewriter: Rewriter;
  replayHistory: boolean;
}

interface State {
  id: string;
  working: Fields;
  published: Fields | null;
}

export async function importEntries(
  context: EntryImport,
  entries: readonly ExportedEntry[],
): Promise<{ entries: number; publishes: number; ids: Map<string, string> }> {
  const byPage = new Map<string, ExportedEntry[]>();
  for (const entry of entries) byPage.set(entry.pageId, [...(byPage.get(entry.pageId) ?? []), entry]);
  const states: [ExportedEntry, State][] = [];
  for (const [pageId, list] of byPage) {
    const stubs = await call(context.url, `read the new entries of ${pageId}`, () =>
      context.editor.GET('/v1/content/{id}', { params: { path: { id: pageId } } }),
    );
    const ids = new Map(stubs.map((e) => [e.instanceKey, e]));
    for (const entry of list) {
      const stub = ids.get(entry.instanceKey);
      if (!stub) {
        throw new CommandError(
          `entry ${pageId} ${entry.instanceKey} has no definition in the export, so no entry was made for it`,
        );
      }
      states.push([
        entry,
        { id: stub.id, working: stub.fields, published: stub.status === 'published' ? stub.fields : null },
      ]);
    }
  }
  const ids = new Map(states.map(([entry, state]) => [entry.id, state.id]));
  const { rewrites, ...rest } = context;
  const withIds: Context = { ...rest, rewriter: rewriter(...rewrites, entryRewrite(ids)) };
  let publishes = 0;
  for (const [entry, state] of states) publishes += await importEntry(withIds, entry, state);
  return { entries: entries.length, publishes, ids };
}

async function importEntry(context: Context, entry: ExportedEntry, state: State): Promise<number> {
  const { rewriter } = context;
  let publishes = 0;
  if (context.replayHistory) {
    for (const row of entry.history) {
      if (row.action === 'publish') {
        await save(context, state, rewriter.rewrite(row.fields), 'published');
        publishes++;
      } else if (state.published) await unpublish(context, state);
    }
  }
  const published = entry.published && rewriter.rewrite(entry.published);
  if (published && !(state.published && sameJson(state.published, published))) {
    await save(context, state, published, 'published');
    publishes++;
  } else if (!published && state.published) {
    await unpublish(context, state);
  }
  await save(context, state, rewriter.rewrite(entry.working), 'draft');
  return publishes;
}

/**
 * Sets the working copy to `target` (a merge patch: changed keys, and null for keys to remove) and
 * publishes it or not. Nothing is sent when nothing would change.
 */
async function save(
  context: Context,
  state: State,
  target: Fields,
  status: 'draft' | 'published',
): Promise<void> {
  const patch: Fields = {};
  for (const [key, value] of Object.entries(target)) {
    if (!(key in state.working) || !sameJson(state.working[key], value)) patch[key] = value;
  }
  for (const key of Object.keys(state.working)) if (!(key in target)) patch[key] = null;
  const changes = Object.keys(patch).length > 0;
  const live = state.published !== null && sameJson(state.published, target);
  if (!changes && (status === 'draft' || live)) return;
  const body: Schemas['UpdateEntryBody'] = { status, ...(changes && { fields: patch }) };
  const saved = await call(context.url, `save entry ${state.id}`, () =>
    context.editor.PATCH('/v1/content/{id}', { params: { path: { id: state.id } }, body }),
  );
  state.working = saved.fields;
  if (status === 'published') state.published = saved.fields;
}

async function unpublish(context: Context, state: State): Promise<void> {
  await call(context.url, `unpublish entry ${state.id}`, () =>
    context.editor.POST('/v1/content/{entryId}/unpublish', { params: { path: { entryId: state.id } } }),
  );
  state.published = null;
}
