import { Table, Text } from '@mantine/core';
import { PartBoundary } from '../../../components/PartBoundary';
import { own } from '../../../lib/own';
import { type Decl, labelOf, sameValue } from '../../editor';
import { ReadableValue } from './ReadableValue';

const imageUrlOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { url?: unknown }).url === 'string') {
    return (value as { url: string }).url;
  }
  return null;
};

/** A value as an editor reads it: an image as its picture (and its alt text), the rest by its declaration. */
function Show({
  value,
  decl,
  side,
  field,
}: {
  value: unknown;
  decl: Decl | undefined;
  side: string;
  field: string;
}) {
  if (value === undefined || value === null) {
    return (
      <Text span c="dimmed" size="sm">
        (none)
      </Text>
    );
  }
  const image = decl?.type === 'image' ? imageUrlOf(value) : null;
  if (image) {
    const local = image.startsWith(window.location.origin) || image.startsWith('/');
    const alt = typeof (value as { alt?: unknown }).alt === 'string' ? (value as { alt: string }).alt : '';
    return (
      <>
        <a href={image} target="_blank" rel="noopener noreferrer" title={image}>
          <img
            className="folio-diff-image"
            src={local ? `${image}?w=240&h=160` : image}
            alt={`${field}, ${side}`}
            width={120}
            height={80}
          />
        </a>
        {alt && <Text size="sm">Alt text: {alt}</Text>}
      </>
    );
  }
  return <ReadableValue value={value} decl={decl} />;
}

/**
 * A version's fields beside the working copy's, field by field, named by their labels; changed rows
 * are marked in words (not only colour). `decls` (the page's definition, in its order) says how to show
 * each value. `fallbacks`: the working copy's fields that a locale only reads from another (left out:
 * a version of that locale holds its own values, so they are compared with its own, not the fallback's).
 */
export function FieldDiff({
  version,
  working: read,
  decls,
  fallbacks = {},
  locale,
}: {
  version: Record<string, unknown>;
  working: Record<string, unknown>;
  decls: Record<string, Decl>;
  fallbacks?: Record<string, string>;
  locale?: string | undefined;
}) {
  const working = Object.fromEntries(Object.entries(read).filter(([key]) => !Object.hasOwn(fallbacks, key)));
  // The definition's order first (as the form shows the fields), then keys it no longer lists.
  const keys = [...new Set([...Object.keys(decls), ...Object.keys(version), ...Object.keys(working)])];
  return (
    <Table withTableBorder layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="18%">Field</Table.Th>
          <Table.Th>This version</Table.Th>
          <Table.Th>Working copy</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((key) => {
          const changed = !sameValue(own(version, key), own(working, key));
          return (
            <Table.Tr key={key} className={changed ? 'folio-changed' : undefined}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {own(decls, key) ? labelOf(own(decls, key)!) : key}
                </Text>
                {/* Dark on the row's yellow: orange there fell short of the contrast AA asks of small text. */}
                <Text size="xs" c={changed ? 'dark' : 'dimmed'} fw={changed ? 700 : undefined}>
                  {changed ? 'changed' : 'same'}
                </Text>
              </Table.Td>
              <Table.Td>
                <PartBoundary title={`${key} could not be shown`} rest="The other fields are shown.">
                  <Show value={own(version, key)} decl={own(decls, key)} side="this version" field={key} />
                </PartBoundary>
              </Table.Td>
              <Table.Td>
                <PartBoundary title={`${key} could not be shown`} rest="The other fields are shown.">
                  <Show
                    value={own(working, key)}
                    decl={own(decls, key)}
                    side="the working copy"
                    field={key}
                  />
                  {own(fallbacks, key) && (
                    <Text size="xs" c="dimmed">
                      Not translated into {locale}: it shows the {own(fallbacks, key)} value.
                    </Text>
                  )}
                </PartBoundary>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
