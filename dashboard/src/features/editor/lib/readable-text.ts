import type { BlockDecl, Decl } from '../components/structured/decl';

/**
 * A stored value as plain text an editor reads (issue 44 item 12), for read-only text boxes such as
 * side by side's source column: by its declaration, list items and objects by their fields' labels,
 * blocks by their label, options by their labels, links by their page, references by `nameOf` (the
 * entry's title, component and page); never `_key`, `_type`, ids or `{"pageId":"/"}`. Undeclared
 * values and `json` fields stay JSON: that is what an editor wrote. History shows the same reading as
 * elements (features/history/components/ReadableValue.tsx).
 */

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const labelOf = (d: { key?: string; label?: unknown }) =>
  typeof d.label === 'string' && d.label ? d.label : (d.key ?? '');
const json = (v: unknown) => JSON.stringify(v, null, 2);

/** Rich text without its markup: stored HTML through an inert document, a structured document's text. */
function richText(value: unknown): string {
  if (typeof value === 'string') {
    if (!value.includes('<')) return value;
    return new DOMParser().parseFromString(value, 'text/html').body.textContent ?? '';
  }
  const parts: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isRecord(node)) {
      if (node.type === 'text' && typeof node.text === 'string') parts.push(node.text);
      walk(node.content);
      if (node.type === 'paragraph' || node.type === 'heading') parts.push('\n');
    }
  };
  walk(value);
  return parts.join('').trim();
}

const fieldsText = (fields: Decl[], value: Record<string, unknown>, nameOf: NameOf, indent: string) =>
  fields
    .filter((f) => value[f.key] !== undefined && value[f.key] !== null)
    .map((f) => `${indent}${labelOf(f)}: ${readableText(value[f.key], f, nameOf, `${indent}  `).trimStart()}`)
    .join('\n');

export type NameOf = (entryId: string) => string | undefined;

export function readableText(
  value: unknown,
  decl: Decl | undefined,
  nameOf: NameOf = () => undefined,
  indent = '',
): string {
  if (value === undefined || value === null) return '';
  const nested = (d: Decl) => (Array.isArray(d.fields) ? (d.fields as Decl[]) : []);
  switch (decl?.type) {
    case 'richtext':
      return richText(value);
    case 'text':
    case 'url':
    case 'date':
    case 'datetime':
    case 'color':
    case 'number':
      return typeof value === 'string' || typeof value === 'number' ? String(value) : json(value);
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 'Yes' : 'No') : json(value);
    case 'select': {
      const options = (Array.isArray(decl.options) ? decl.options : []) as {
        value: string;
        label?: string;
      }[];
      const values = Array.isArray(value) ? value : [value];
      return values.map((v) => options.find((o) => o.value === v)?.label ?? String(v)).join(', ');
    }
    case 'link':
      if (isRecord(value) && typeof value.pageId === 'string') return `The page ${value.pageId}`;
      if (isRecord(value) && typeof value.href === 'string') return value.href;
      return json(value);
    case 'reference':
      return (Array.isArray(value) ? value : [value])
        .map((id) => (typeof id === 'string' ? (nameOf(id) ?? 'an entry (not found)') : json(id)))
        .join('\n');
    case 'image':
      if (typeof value === 'string') return value;
      if (isRecord(value) && typeof value.url === 'string')
        return typeof value.alt === 'string' && value.alt ? `${value.url} (${value.alt})` : value.url;
      return json(value);
    case 'object':
      return isRecord(value) ? fieldsText(nested(decl), value, nameOf, indent) : json(value);
    case 'list':
      if (!Array.isArray(value)) return json(value);
      return value
        .map((item, i) =>
          isRecord(item)
            ? `${indent}${i + 1}. ${fieldsText(nested(decl), item, nameOf, `${indent}   `).trimStart()}`
            : json(item),
        )
        .join('\n');
    case 'blocks': {
      if (!Array.isArray(value)) return json(value);
      const kinds = (Array.isArray(decl.blocks) ? decl.blocks : []) as BlockDecl[];
      return value
        .map((block, i) => {
          const kind = isRecord(block) ? kinds.find((b) => b.componentId === block._type) : undefined;
          if (!kind || !isRecord(block)) return json(block);
          const body = fieldsText((kind.fields ?? []) as Decl[], block, nameOf, `${indent}   `);
          return `${indent}${i + 1}. ${kind.label ?? kind.componentId}${body ? `\n${body}` : ''}`;
        })
        .join('\n');
    }
    default:
      return typeof value === 'string'
        ? richText(value)
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : json(value);
  }
}

const nestedList = (d: Decl): Decl[] => (Array.isArray(d.fields) ? (d.fields as Decl[]) : []);
const blockList = (d: Decl): BlockDecl[] => (Array.isArray(d.blocks) ? (d.blocks as BlockDecl[]) : []);

/** The ids a value holds in its reference fields, at any depth. */
export function referenceIds(value: unknown, decl: Decl | undefined, into: Set<string>): Set<string> {
  if (!decl || value === undefined || value === null) return into;
  if (decl.type === 'reference') {
    for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') into.add(id);
  } else if (decl.type === 'object' && isRecord(value)) {
    for (const f of nestedList(decl)) referenceIds(value[f.key], f, into);
  } else if (decl.type === 'list' && Array.isArray(value)) {
    for (const item of value)
      if (isRecord(item)) for (const f of nestedList(decl)) referenceIds(item[f.key], f, into);
  } else if (decl.type === 'blocks' && Array.isArray(value)) {
    for (const block of value) {
      const kind = isRecord(block) ? blockList(decl).find((b) => b.componentId === block._type) : undefined;
      if (kind && isRecord(block))
        for (const f of (kind.fields ?? []) as Decl[]) referenceIds(block[f.key], f, into);
    }
  }
  return into;
}
