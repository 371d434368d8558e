'use client';

import { useContext, useEffect, useSyncExternalStore } from 'react';
import { definitionOf, type FieldDeclaration, type FieldValues } from './fields.js';
import { PageContext } from './provider.js';

const EMPTY = Object.freeze({});

/**
 * One editable component instance: registers `{ componentId, instanceKey, fields }` on mount (Folio
 * creates its stub entry; the SDK batches and deduplicates), and returns its fields, typed from the
 * declaration. Values are undefined until an editor fills them, so render a fallback.
 *
 * ```tsx
 * const { title, price } = useFolio('hero', { componentId: 'Hero', fields: { title: 'text', price: 'number' } });
 * ```
 */
export function useFolio<const D extends FieldDeclaration>(
  instanceKey: string,
  declaration: { componentId: string; fields: D },
): FieldValues<D> {
  const store = useContext(PageContext);
  if (!store) throw new Error('useFolio needs a <FolioProvider> above it.');
  const { componentId, fields } = declaration;
  // Declarations are usually object literals, new on every render: compare them by content.
  const signature = JSON.stringify(fields);
  // biome-ignore lint/correctness/useExhaustiveDependencies: fields is compared through its signature
  useEffect(() => {
    store.register(definitionOf(instanceKey, componentId, fields));
  }, [store, instanceKey, componentId, signature]);
  const read = () => store.get(instanceKey);
  const entry = useSyncExternalStore(store.subscribe, read, read);
  return (entry?.fields ?? EMPTY) as FieldValues<D>;
}
