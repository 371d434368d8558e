import { Code, Table, Text } from '@mantine/core';
import { sameValue } from '../../editor';

const show = (value: unknown) =>
  value === undefined ? (
    <Text span c="dimmed" size="sm">
      (none)
    </Text>
  ) : (
    <Code block>{typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</Code>
  );

/**
 * A version's fields beside the working copy's, key by key; changed rows are marked in words (not
 * only colour). Values are shown as text: rich text HTML is never rendered here.
 */
export function FieldDiff({
  version,
  working,
}: {
  version: Record<string, unknown>;
  working: Record<string, unknown>;
}) {
  const keys = [...new Set([...Object.keys(version), ...Object.keys(working)])].sort();
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
          const changed = !sameValue(version[key], working[key]);
          return (
            <Table.Tr key={key} className={changed ? 'folio-changed' : undefined}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {key}
                </Text>
                <Text size="xs" c={changed ? 'orange.9' : 'dimmed'}>
                  {changed ? 'changed' : 'same'}
                </Text>
              </Table.Td>
              <Table.Td>{show(version[key])}</Table.Td>
              <Table.Td>{show(working[key])}</Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
