import { Box, Code, List, Stack, Text } from '@mantine/core';
import { createContext, type ReactNode, useContext } from 'react';
import { blocksOf, type Decl, type EntrySummary, labelOf, nestedOf } from '../../editor';
import { RichValue } from './RichValue';

/**
 * A stored value as an editor reads it (issue 44 item 12), by its declaration: list items and objects
 * by their fields' labels, blocks by their label, a select by its options' labels, a reference by its
 * entry's title, component and page, a link by its page; never `_key`, `_type`, entry ids or
 * `{"pageId":"/"}`. What does not fit its declaration (a value stored before the declaration changed)
 * and `json` fields show as JSON, as they are.
 */

/** The entries references point to, by id (GET /v1/entries?ids=, read once per screen). */
export const ReferencedEntries = createContext<ReadonlyMap<string, EntrySummary>>(new Map());

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const asJson = (value: unknown) => (
  <Code block className="folio-diff-text">
    {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
  </Code>
);

const none = (
  <Text span c="dimmed" size="sm">
    (none)
  </Text>
);

/** Nested fields by label, one line each; keys no declaration lists (and `_key`, `_type`) are left out. */
function FieldsOf({ fields, value }: { fields: Decl[]; value: Record<string, unknown> }) {
  const shown = fields.filter((f) => value[f.key] !== undefined && value[f.key] !== null);
  if (shown.length === 0) return none;
  return (
    <Stack gap={2}>
      {shown.map((f) => (
        <Box key={f.key}>
          <Text span size="sm" fw={600}>
            {labelOf(f)}:{' '}
          </Text>
          <ReadableValue value={value[f.key]} decl={f} inline />
        </Box>
      ))}
    </Stack>
  );
}

function ReferenceName({ id }: { id: string }) {
  const entry = useContext(ReferencedEntries).get(id);
  if (!entry)
    return (
      <Text span size="sm">
        an entry that no longer exists
      </Text>
    );
  return (
    <Text span size="sm">
      {entry.title ?? entry.instanceKey} ({entry.componentId} on{' '}
      <span className="folio-mono">{entry.pageId}</span>)
    </Text>
  );
}

const plain = (text: string, inline: boolean) =>
  inline ? (
    <Text span size="sm" className="folio-diff-text">
      {text}
    </Text>
  ) : (
    <Code block className="folio-diff-text">
      {text}
    </Code>
  );

export function ReadableValue({
  value,
  decl,
  inline = false,
}: {
  value: unknown;
  decl: Decl | undefined;
  inline?: boolean;
}): ReactNode {
  if (value === undefined || value === null) return none;
  switch (decl?.type) {
    case 'richtext':
      return <RichValue value={value} />;
    case 'text':
    case 'url':
    case 'date':
    case 'datetime':
    case 'color':
      return typeof value === 'string' ? plain(value, inline) : asJson(value);
    case 'number':
      return typeof value === 'number' ? plain(String(value), inline) : asJson(value);
    case 'boolean':
      return typeof value === 'boolean' ? plain(value ? 'Yes' : 'No', inline) : asJson(value);
    case 'select': {
      const options = (Array.isArray(decl.options) ? decl.options : []) as {
        value: string;
        label?: string;
      }[];
      const values = Array.isArray(value) ? value : [value];
      if (!values.every((v) => typeof v === 'string')) return asJson(value);
      const label = (v: string) => options.find((o) => o.value === v)?.label ?? v;
      return plain(values.map(label).join(', '), inline);
    }
    case 'link':
      if (isRecord(value) && typeof value.pageId === 'string')
        return plain(`The page ${value.pageId}`, inline);
      if (isRecord(value) && typeof value.href === 'string') return plain(value.href, inline);
      return asJson(value);
    case 'reference': {
      const ids = Array.isArray(value) ? value : [value];
      if (!ids.every((id) => typeof id === 'string')) return asJson(value);
      return ids.length === 1 ? (
        <ReferenceName id={ids[0] as string} />
      ) : (
        <List size="sm">
          {(ids as string[]).map((id) => (
            <List.Item key={id}>
              <ReferenceName id={id} />
            </List.Item>
          ))}
        </List>
      );
    }
    case 'object':
      return isRecord(value) ? <FieldsOf fields={nestedOf(decl)} value={value} /> : asJson(value);
    case 'list':
      if (!Array.isArray(value) || !value.every(isRecord)) return asJson(value);
      if (value.length === 0) return plain('No items', inline);
      return (
        <List type="ordered" size="sm">
          {value.map((item, i) => (
            <List.Item key={typeof item._key === 'string' ? item._key : i}>
              <FieldsOf fields={nestedOf(decl)} value={item} />
            </List.Item>
          ))}
        </List>
      );
    case 'blocks': {
      if (!Array.isArray(value) || !value.every(isRecord)) return asJson(value);
      if (value.length === 0) return plain('No sections', inline);
      return (
        <List type="ordered" size="sm">
          {value.map((block, i) => {
            const kind = blocksOf(decl).find((b) => b.componentId === block._type);
            return (
              <List.Item key={typeof block._key === 'string' ? block._key : i}>
                <Text size="sm" fw={700}>
                  {kind ? (kind.label ?? kind.componentId) : String(block._type ?? 'Unknown section')}
                </Text>
                {kind ? <FieldsOf fields={(kind.fields ?? []) as Decl[]} value={block} /> : asJson(block)}
              </List.Item>
            );
          })}
        </List>
      );
    }
    default:
      // json, and keys no definition declares: their JSON is what an editor wrote.
      return asJson(value);
  }
}
