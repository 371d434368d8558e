import { readFileSync } from 'node:fs';

/**
 * A heap snapshot (v8.writeHeapSnapshot) summed by constructor: count and self size of the objects
 * of each. Self sizes, not retained ones: what grows shows up as more objects of some constructor,
 * and a dominator tree of a 100 MB snapshot is more than this comparison needs.
 */
export interface HeapGroup {
  name: string;
  count: number;
  bytes: number;
}

export function summarizeSnapshot(file: string): Map<string, HeapGroup> {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, HeapGroup>();
  const { nodes, strings } = snapshot;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt] as number] ?? '?';
    // Objects by constructor; everything else (strings, code, arrays…) by its kind.
    const name = type === 'object' ? (strings[nodes[i + nameAt] as number] ?? '?') : `(${type})`;
    const group = groups.get(name) ?? { name, count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += nodes[i + sizeAt] as number;
    groups.set(name, group);
  }
  return groups;
}

/** The constructors whose self size grew most from `a` to `b`. */
export function growth(
  a: Map<string, HeapGroup>,
  b: Map<string, HeapGroup>,
  top = 15,
): { name: string; count: number; bytes: number; countDelta: number; bytesDelta: number }[] {
  return [...b.values()]
    .map((g) => {
      const before = a.get(g.name);
      return { ...g, countDelta: g.count - (before?.count ?? 0), bytesDelta: g.bytes - (before?.bytes ?? 0) };
    })
    .sort((x, y) => y.bytesDelta - x.bytesDelta)
    .slice(0, top);
}
