import type { ComponentDefinition, SyncResult } from './types.js';

/**
 * `folio.register()`: definitions sync with the publishable key, batched and deduplicated.
 *
 * Batching: every registration of one page made before the current task ends (a render's worth of
 * components mounting, each calling register) is sent as one POST /v1/definitions/sync. A timer of 0
 * rather than a microtask, so components that mount in separate commits of the same task still share
 * one request. Two registrations of one instanceKey in a batch: the last wins.
 *
 * Deduplication: the sync is additive and idempotent (contract §3), so only components that differ
 * from what this process or tab already sent are sent; a batch with none left sends nothing. A failed
 * request forgets its components, so a later register sends them again. Kept in memory only: a reload
 * sends each page's components once more, which the server answers without writing (an unchanged sync
 * writes nothing) and counts against the per-project sync limit (CMS_SYNC_LIMIT_PER_MINUTE).
 */
export type Send = (pageId: string, components: ComponentDefinition[]) => Promise<SyncResult>;

interface Batch {
  components: Map<string, ComponentDefinition>;
  promise: Promise<SyncResult | null>;
  resolve(result: SyncResult | null): void;
  reject(error: unknown): void;
}

/** Options and nested declarations count: a changed nested field is a change to send (contract §13). */
const fingerprint = (component: ComponentDefinition): string =>
  JSON.stringify([component.componentId, component.fields]);

export function registrar(send: Send, onError: (error: unknown) => void) {
  /** `pageId \n instanceKey` → fingerprint of what was sent (or is being sent). */
  const sent = new Map<string, string>();
  const batches = new Map<string, Batch>();

  async function flush(pageId: string, batch: Batch): Promise<void> {
    batches.delete(pageId);
    const fresh = [...batch.components.values()].filter(
      (component) => sent.get(`${pageId}\n${component.instanceKey}`) !== fingerprint(component),
    );
    if (fresh.length === 0) return batch.resolve(null);
    for (const component of fresh) sent.set(`${pageId}\n${component.instanceKey}`, fingerprint(component));
    try {
      batch.resolve(await send(pageId, fresh));
    } catch (error) {
      for (const component of fresh) {
        const key = `${pageId}\n${component.instanceKey}`;
        if (sent.get(key) === fingerprint(component)) sent.delete(key);
      }
      onError(error);
      batch.reject(error);
    }
  }

  /**
   * Resolves with the sync's answer once the batch is sent, or null when nothing needed sending.
   * A failure rejects it and also goes to `onError`, so a register nobody awaits is never silent and
   * never an unhandled rejection.
   */
  return function register(pageId: string, components: ComponentDefinition[]): Promise<SyncResult | null> {
    let batch = batches.get(pageId);
    if (!batch) {
      const created = { components: new Map() } as Batch;
      created.promise = new Promise<SyncResult | null>((resolve, reject) => {
        created.resolve = resolve;
        created.reject = reject;
      });
      created.promise.catch(() => {}); // handled: the failure went to onError
      batches.set(pageId, created);
      setTimeout(() => void flush(pageId, created), 0);
      batch = created;
    }
    for (const component of components) batch.components.set(component.instanceKey, component);
    return batch.promise;
  };
}
