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
 * Every stub is read before any value is written, so each exported entry's id here is known (its
 * exported one, unless the server had to change it) and a reference to a changed one, wherever it is
 * written (an entry earlier in the file, a list item), is rewritten.
 */
export interface EntryImport {
  url: string;
  /** A session with the project's key (the content routes). */
  editor: FolioClient;
  /** Rewrites of strings in values (media addresses); entry ids are added here. */
  rewrites: Rewrite[];
  replayHistory: boolean;
  /** The project's languages (contract §14), set before the entries; null: one language. */
  locales: Locales | null;
  /** Which top-level keys of an entry are `localized` (its declaration); empty without locales. */
  localizedOf(entry: ExportedEntry): ReadonlySet<string>;
}

type Locales = NonNullable<Schemas['Project']['locales']>;

interface Context {
  url: string;
  editor: FolioClient;
  rewriter: Rewriter;
  replayHistory: boolean;
  locales: Locales | null;
}

/**
 * What the import knows of one entry on the new server, per locale (`undefined`: the only one, in a
 * project without locales, where nothing is sent as `?locale=`). A locale's view is its working copy
 * less what it reads through fallbacks: the shared values and its own localized ones. A shared value
 * written in one locale is every locale's, so it is copied into the other views.
 */
interface State {
  id: string;
  localized: ReadonlySet<string>;
  views: Map<string | undefined, Fields>;
  published: Map<string | undefined, Fields | null>;
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
      const localized = context.locales ? context.localizedOf(entry) : new Set<string>();
      const state: State = { id: stub.id, localized, views: new Map(), published: new Map() };
      // The stub's values (a default's) are the default locale's; other locales hold none of their own.
      const main = context.locales?.default;
      state.views.set(main, stub.fields);
      state.published.set(main, stub.status === 'published' ? stub.fields : null);
      for (const { code } of context.locales?.available ?? []) {
        if (code === main) continue;
        state.views.set(code, sharedOf(state, stub.fields));
        state.published.set(code, null);
      }
      states.push([entry, state]);
    }
  }
  const ids = new Map(states.map(([entry, state]) => [entry.id, state.id]));
  const { rewrites, localizedOf: _, ...rest } = context;
  const withIds: Context = { ...rest, rewriter: rewriter(...rewrites, entryRewrite(ids)) };
  let publishes = 0;
  for (const [entry, state] of states) publishes += await importEntry(withIds, entry, state);
  return { entries: entries.length, publishes, ids };
}

/** The values of `fields` that are shared by every locale. */
function sharedOf(state: State, fields: Fields): Fields {
  const shared: Fields = {};
  for (const [key, value] of Object.entries(fields)) if (!state.localized.has(key)) shared[key] = value;
  return shared;
}

async function importEntry(context: Context, entry: ExportedEntry, state: State): Promise<number> {
  const { rewriter, locales } = context;
  const main = locales?.default;
  let publishes = 0;
  if (context.replayHistory) {
    for (const row of entry.history) {
      // A record from before the project had locales is the default locale's.
      const locale = locales ? (row.locale ?? main) : undefined;
      if (row.action === 'publish') {
        await save(context, state, locale, rewriter.rewrite(row.fields), 'published');
        publishes++;
      } else if (row.action === 'unpublish' && state.published.get(locale)) {
        await unpublish(context, state, locale);
      }
      // `saved` (a working copy a restore replaced) is no publish state: the end state below covers it.
    }
  }
  // Each locale's published copy, then each locale's working copy (the default's first: it holds the
  // shared values, which the other locales' working copies then agree with).
  const copies: [string | undefined, ExportedEntry['published'], ExportedEntry['working']][] = [
    [main, entry.published, entry.working],
    ...Object.entries(locales ? (entry.locales ?? {}) : {}).map(
      ([code, copy]) => [code, copy.published, copy.working] as [string, Fields | null, Fields],
    ),
  ];
  for (const [locale, exported] of copies) {
    const published = exported && rewriter.rewrite(exported);
    const held = state.published.get(locale) ?? null;
    if (published && !(held && sameJson(held, published))) {
      await save(context, state, locale, published, 'published');
      publishes++;
    } else if (!published && held) {
      await unpublish(context, state, locale);
    }
  }
  for (const [locale, , working] of copies)
    await save(context, state, locale, rewriter.rewrite(working), 'draft');
  return publishes;
}

/**
 * Sets the working copy in `locale` to `target` (a merge patch: changed keys, and null for keys to
 * remove) and publishes it there or not. Nothing is sent when nothing would change.
 */
async function save(
  context: Context,
  state: State,
  locale: string | undefined,
  target: Fields,
  status: 'draft' | 'published',
): Promise<void> {
  const view = state.views.get(locale) ?? {};
  const patch: Fields = {};
  for (const [key, value] of Object.entries(target)) {
    if (!Object.hasOwn(view, key) || !sameJson(view[key], value)) patch[key] = value;
  }
  // Own keys (contract §23): `key in target` found `constructor` on every object, so a removed
  // field of that name was never sent as null.
  for (const key of Object.keys(view)) if (!Object.hasOwn(target, key)) patch[key] = null;
  const changes = Object.keys(patch).length > 0;
  const held = state.published.get(locale) ?? null;
  const live = held !== null && sameJson(held, target);
  if (!changes && (status === 'draft' || live)) return;
  const body: Schemas['UpdateEntryBody'] = { status, ...(changes && { fields: patch }) };
  const query = locale === undefined ? {} : { query: { locale } };
  const saved = await call(context.url, `save entry ${state.id}${locale ? ` in ${locale}` : ''}`, () =>
    context.editor.PATCH('/v1/content/{id}', { params: { path: { id: state.id }, ...query }, body }),
  );
  const own = { ...saved.fields };
  for (const key of Object.keys(saved.fallbacks ?? {})) delete own[key];
  const shared = sharedOf(state, own);
  for (const [code, other] of state.views) {
    if (code === locale) continue;
    const kept: Fields = {};
    for (const [key, value] of Object.entries(other)) if (state.localized.has(key)) kept[key] = value;
    state.views.set(code, { ...kept, ...shared });
  }
  state.views.set(locale, own);
  if (status === 'published') state.published.set(locale, own);
}

async function unpublish(context: Context, state: State, locale: string | undefined): Promise<void> {
  const query = locale === undefined ? {} : { query: { locale } };
  await call(context.url, `unpublish entry ${state.id}${locale ? ` in ${locale}` : ''}`, () =>
    context.editor.POST('/v1/content/{entryId}/unpublish', {
      params: { path: { entryId: state.id }, ...query },
    }),
  );
  state.published.set(locale, null);
}
