import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type pg from 'pg';
import type { DatabaseConfig } from '../../config.js';
import { FLUSH_ALL } from '../../shared/memo-cache.js';
import { loadPg } from '../pg-driver.js';

/**
 * Cross-instance cache invalidation. Folio keeps hot read results in memory (serialized pages, the
 * snapshot, publishable key lookups); every instance must drop them when another instance changes
 * the data behind them.
 *
 * PostgreSQL: the writer calls `select pg_notify(...)` inside its transaction, so the notification
 * is delivered on commit and never for a rolled-back change; each instance holds one dedicated
 * connection that LISTENs. Notifications sent while that connection is down are lost, so on every
 * (re)connect subscribers are told to flush everything (topic `*`), and `live` is false in between:
 * caches must not serve then. Rejected: polling a "changes" table (a query per request or a delay),
 * and a TTL (stale reads for its length).
 *
 * SQLite: one process owns the file, so delivery is in-process only (`notify` is a no-op; the writer
 * calls `deliverLocal` after its commit). A second server on one SQLite file is refused at start
 * (src/db/sqlite-lock.ts); use PostgreSQL to run more than one instance.
 *
 * In both dialects the writer also calls `deliverLocal` right after its commit, so its own next read
 * sees its write without waiting for the notification round trip (read-your-writes).
 */
export type ChangeListener = (topic: string, key: string) => void;

export { FLUSH_ALL };

/**
 * What the caches listen for. Anything that changes what a visitor or a build reads must notify:
 * - `project` (key: projectId): the key, domains or bakeEnabled changed (rotate-key, PATCH project);
 * - `page` (key: pageKey(projectId, pageId)): the published entries of a page changed; in a project
 *   with locales, pageKey(projectId, pageId, locale) when only that locale's published copies changed
 *   (a publish or unpublish in it): the reads of the locales whose fallback chain passes through it
 *   change, no other (a key without a locale changes every locale's reads);
 * - `snapshot` (key: projectId): anything in GET /v1/snapshot changed (content or object publishes);
 * - `draft` (key: pageKey): only the working copies of a page changed (a draft save, a restore, new
 *   stubs). No cache holds working copies; live preview streams (src/modules/live) follow it;
 * - `preview` (key: projectId): preview tokens of the project ended (their creator's access changed,
 *   the key was rotated, DELETE /v1/preview-tokens). Requests look tokens up in the database; open
 *   live streams ask again whether their token still works.
 */
export const TOPICS = {
  project: 'project',
  page: 'page',
  snapshot: 'snapshot',
  draft: 'draft',
  preview: 'preview',
} as const;
/** Separates a `page` key's locale (page ids hold no control characters, contract §17). */
const LOCALE_MARK = '\u0002';
export const pageKey = (projectId: string, pageId: string, locale?: string): string =>
  locale === undefined ? `${projectId} ${pageId}` : `${projectId} ${pageId}${LOCALE_MARK}${locale}`;
/** The inverse of pageKey (project ids hold no space; page ids may); `page` is the key without its locale. */
export function splitPageKey(key: string): {
  projectId: string;
  pageId: string;
  locale: string | undefined;
  page: string;
} {
  const space = key.indexOf(' ');
  const mark = key.indexOf(LOCALE_MARK, space);
  const page = mark === -1 ? key : key.slice(0, mark);
  return {
    projectId: key.slice(0, space),
    pageId: page.slice(space + 1),
    locale: mark === -1 ? undefined : key.slice(mark + 1),
    page,
  };
}

export interface ChangeBus {
  /** Announce a change from inside the writing transaction (PostgreSQL: delivered on commit). */
  notify(trx: Kysely<any>, topic: string, key: string): Promise<void>;
  /** Several announcements in one statement (one round trip however many a transaction made). */
  notifyMany(trx: Kysely<any>, changes: readonly (readonly [string, string])[]): Promise<void>;
  /**
   * The same announcements as payloads for a statement the writer makes anyway (PostgreSQL: each
   * becomes a `pgNotify(payload)` call, delivered on commit like notify's); none where delivery is
   * in-process.
   */
  notifyPayloads(changes: readonly (readonly [string, string])[]): string[];
  /** Deliver to this instance's subscribers now: the writer, right after its commit. */
  deliverLocal(topic: string, key: string): void;
  subscribe(fn: ChangeListener): () => void;
  /** False while invalidations from other instances may be missed; caches must not serve then. */
  readonly live: boolean;
  /** Resolves after the first attempt to start listening (success or failure); never rejects. */
  started(): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'folio_changes';

function createListeners() {
  const listeners = new Set<ChangeListener>();
  return {
    add(fn: ChangeListener) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    emit(topic: string, key: string) {
      for (const fn of listeners) {
        try {
          fn(topic, key);
        } catch {
          // A faulty subscriber must not stop the others from invalidating.
        }
      }
    },
  };
}

export function createInProcessChangeBus(): ChangeBus {
  const listeners = createListeners();
  return {
    notify: async () => {},
    notifyMany: async () => {},
    notifyPayloads: () => [],
    deliverLocal: listeners.emit,
    subscribe: listeners.add,
    live: true,
    started: async () => {},
    close: async () => {},
  };
}

export interface PgChangeBusOptions {
  url: string;
  /** Reconnect backoff bounds, in milliseconds. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  onError?: (err: Error) => void;
}

const payloadOf = ([topic, key]: readonly [string, string]) => JSON.stringify([topic, key]);

/** A notification of the bus's channel with `payload` (notifyPayloads), as an SQL expression. */
export const pgNotify = (payload: unknown): RawBuilder<unknown> =>
  sql`pg_notify(${sql.lit(CHANNEL)}, ${payload})`;

export function createPgChangeBus(options: PgChangeBusOptions): ChangeBus {
  const listeners = createListeners();
  const minBackoff = options.minBackoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5000;
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let backoff = minBackoff;
  let timer: NodeJS.Timeout | null = null;
  let firstAttempt: Promise<void> | null = null;

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    live = false;
    listeners.emit(FLUSH_ALL, '');
    c.end().catch(() => {});
    schedule();
  };

  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, backoff);
    timer.unref();
    backoff = Math.min(backoff * 2, maxBackoff);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const { Client } = await loadPg();
    if (closed) return;
    const c = new Client({ connectionString: options.url, connectionTimeoutMillis: 5000 });
    c.on('error', (err) => {
      options.onError?.(err);
      lost(c);
    });
    c.on('end', () => lost(c));
    c.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const [topic, key] = JSON.parse(msg.payload) as [string, string];
        listeners.emit(topic, key);
      } catch {
        // Not ours (someone else notifying on the channel): ignore.
      }
    });
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      if (closed || client !== c) {
        await c.end().catch(() => {});
        return;
      }
      backoff = minBackoff;
      // Whatever was cached before this moment may have missed notifications.
      listeners.emit(FLUSH_ALL, '');
      live = true;
    } catch (err) {
      options.onError?.(err as Error);
      lost(c);
    }
  }

  return {
    async notify(trx, topic, key) {
      await sql`select ${pgNotify(payloadOf([topic, key]))}`.execute(trx);
    },
    async notifyMany(trx, changes) {
      if (changes.length === 0) return;
      await sql`select ${sql.join(changes.map((change) => pgNotify(payloadOf(change))))}`.execute(trx);
    },
    notifyPayloads: (changes) => changes.map(payloadOf),
    deliverLocal: listeners.emit,
    subscribe: listeners.add,
    get live() {
      return live;
    },
    started() {
      firstAttempt ??= connect();
      return firstAttempt;
    },
    async close() {
      closed = true;
      live = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await firstAttempt?.catch(() => {});
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

/** The bus for a database: LISTEN/NOTIFY on PostgreSQL, in-process on SQLite. */
export function createChangeBus(database: DatabaseConfig, onError?: (err: Error) => void): ChangeBus {
  return database.kind === 'postgres'
    ? createPgChangeBus({ url: database.url, ...(onError && { onError }) })
    : createInProcessChangeBus();
}

/**
 * What a transaction's writer calls to record a change: `changed(topic, key)`. `changed.take()`
 * hands the changes recorded so far to a statement the writer makes anyway, as notification
 * payloads (src/db/dialect/together.ts), so they are not announced again at the end.
 */
export interface Changed {
  (topic: string, key: string): Promise<void>;
  take(): string[];
}

/**
 * Runs `fn` in a transaction and, after it commits, delivers its changes to this instance.
 * `changed(topic, key)` records a change; the transaction's changes are announced to other instances
 * in one statement at its end, still inside it (PostgreSQL: delivered on commit, never for a
 * rollback), unless the writer folded them into one of its own statements (`changed.take()`).
 * One round trip per transaction at most, not per change: a publish names its page and the
 * snapshot, and each extra round trip was a measurable part of its latency.
 */
export async function transactionWithChanges<DB, T>(
  db: Kysely<DB>,
  bus: ChangeBus,
  fn: (trx: Transaction<DB>, changed: Changed) => Promise<T>,
): Promise<T> {
  const changes = collectChanges(bus);
  const result = await db.transaction().execute(async (trx) => {
    const value = await fn(trx, changes.changed);
    await bus.notifyMany(trx, changes.unannounced());
    return value;
  });
  changes.deliverLocal();
  return result;
}

/**
 * The changes one write records: `changed` for the writer, what it has not yet folded into a
 * statement (`unannounced`), and their delivery to this instance once the write is durable. Shared by
 * transactionWithChanges and writers whose whole write is one statement (content's optimistic publish).
 */
export function collectChanges(bus: ChangeBus): {
  changed: Changed;
  unannounced(): (readonly [string, string])[];
  deliverLocal(): void;
} {
  const pending = new Map<string, readonly [string, string]>();
  const announced = new Set<string>();
  const keyOf = (topic: string, key: string) => `${topic}\u0000${key}`;
  const unannounced = () => [...pending].filter(([k]) => !announced.has(k)).map(([, change]) => change);
  const changed: Changed = Object.assign(
    async (topic: string, key: string) => {
      const k = keyOf(topic, key);
      pending.set(k, [topic, key]);
      announced.delete(k);
    },
    {
      take: () => {
        const now = unannounced();
        for (const [topic, key] of now) announced.add(keyOf(topic, key));
        return bus.notifyPayloads(now);
      },
    },
  );
  return {
    changed,
    unannounced,
    deliverLocal() {
      for (const [topic, key] of pending.values()) bus.deliverLocal(topic, key);
    },
  };
}
