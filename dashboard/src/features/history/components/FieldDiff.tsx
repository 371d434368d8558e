import { Code, Table, Text } from '@mantine/core';
import { PartBoundary } from '../../../components/PartBoundary';
import { own } from '../../../lib/own';
import { type FieldType, sameValue } from '../../editor';
import { RichValue } from './RichValue';

const imageUrlOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { url?: unknown }).url === 'string') {
    return (value as { url: string }).url;
  }
  return null;
};

/** A value as an editor reads it: rich text rendered (safely), an image as its picture, the rest as text. */
function Show({
  value,
  type,
  side,
  field,
}: {
  value: unknown;
  type: FieldType | undefined;
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
  if (type === 'richtext') return <RichValue value={value} />;
  const image = type === 'image' ? imageUrlOf(value) : null;
  if (image) {
    const local = image.startsWith(window.location.origin) || image.startsWith('/');
    return (
      <a href={image} target="_blank" rel="noopener noreferrer" title={image}>
        <img
          className="folio-diff-image"
          src={local ? `${image}?w=240&h=160` : image}
          alt={`${field}, ${side}`}
          width={120}
          height={80}
        />
      </a>
    );
  }
  return (
    <Code block className="folio-diff-text">
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </Code>
  );
}

/**
 * A version's fields beside the working copy's, key by key; changed rows are marked in words (not
 * only colour). `types` (from the page's definitions) says how to show each value.
 */
export function FieldDiff({
  version,
  working,
  types,
}: {
  version: Record<string, unknown>;
  working: Record<string, unknown>;
  types: Record<string, FieldType>;
}) {
  // The definition's order first (as the form shows the fields), then keys it no longer lists.
  const keys = [...new Set([...Object.keys(types), ...Object.keys(version), ...Object.keys(working)])];
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
                  {key}
                </Text>
                {/* Dark on the row's yellow: orange there fell short of the contrast AA asks of small text. */}
                <Text size="xs" c={changed ? 'dark' : 'dimmed'} fw={changed ? 700 : undefined}>
                  {changed ? 'changed' : 'same'}
                </Text>
              </Table.Td>
              <Table.Td>
                <PartBoundary title={`${key} could not be shown`} rest="The other fields are shown.">
                  <Show value={own(version, key)} type={own(types, key)} side="this version" field={key} />
                </PartBoundary>
              </Table.Td>
              <Table.Td>
                <PartBoundary title={`${key} could not be shown`} rest="The other fields are shown.">
                  <Show
                    value={own(working, key)}
                    type={own(types, key)}
                    side="the working copy"
                    field={key}
                  />
                </PartBoundary>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
