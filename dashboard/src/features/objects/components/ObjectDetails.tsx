import { Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { alertOf } from '../../../lib/api';
import { formatTime } from '../../../lib/format';
import { canonical, type ObjectRecord, stateOf, useDeleteObject } from '../api/objects.api';
import { ObjectStateBadge } from './ObjectStateBadge';

const show = (value: unknown) =>
  value === undefined ? (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  ) : (
    <Code className="folio-break">{typeof value === 'string' ? value : JSON.stringify(value)}</Code>
  );

/**
 * One object: each field and each collection item with its draft value beside its published value
 * (rows that differ are marked), and Delete.
 */
export function ObjectDetails({
  projectId,
  draft,
  published,
}: {
  projectId: string;
  draft: ObjectRecord;
  published: ObjectRecord | undefined;
}) {
  const navigate = useNavigate();
  const remove = useDeleteObject(projectId);
  const [confirm, setConfirm] = useState(false);
  const paths = [...new Set([...Object.keys(draft.fields), ...Object.keys(published?.fields ?? {})])].sort();
  const collections = [
    ...new Set([...Object.keys(draft.collections), ...Object.keys(published?.collections ?? {})]),
  ].sort();

  const onDelete = () =>
    remove.mutate(
      { type: draft.type, id: draft.id },
      {
        onSuccess: () => {
          setConfirm(false);
          notifications.show({ message: `${draft.type} ${draft.id} deleted` });
          navigate(`/p/${projectId}/objects/${encodeURIComponent(draft.type)}`);
        },
      },
    );

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="object-title">
      <Stack>
        <Group justify="space-between">
          <Group gap="xs">
            <Title order={2} size="h3" id="object-title" ff="monospace">
              {draft.type}/{draft.id}
            </Title>
            <ObjectStateBadge state={stateOf(draft, published)} />
          </Group>
          <Button color="red" variant="light" onClick={() => setConfirm(true)}>
            Delete
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Last saved {formatTime(draft.updatedAt)}
          {published ? `; last published ${formatTime(published.updatedAt)}` : '; never published'}.
        </Text>

        <Title order={3} size="h4">
          Fields
        </Title>
        {paths.length === 0 ? (
          <Text size="sm">No fields.</Text>
        ) : (
          <Table withTableBorder layout="fixed" aria-label="Fields">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="30%">Field</Table.Th>
                <Table.Th>Draft</Table.Th>
                <Table.Th>Published</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {paths.map((path) => {
                const d = draft.fields[path];
                const p = published?.fields[path];
                const differs = canonical(d) !== canonical(p);
                return (
                  <Table.Tr key={path} className={differs ? 'folio-changed' : undefined}>
                    <Table.Td ff="monospace">
                      {path}
                      {differs && (
                        <Text span size="xs" fs="italic" ml={6}>
                          (changed)
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{show(d)}</Table.Td>
                    <Table.Td>{show(p)}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}

        <Title order={3} size="h4">
          Collections
        </Title>
        {collections.length === 0 ? (
          <Text size="sm">No collections.</Text>
        ) : (
          collections.map((name) => {
            const draftItems = draft.collections[name] ?? [];
            const publishedItems = published?.collections[name] ?? [];
            const ids = [
              ...draftItems.map((i) => i.itemId),
              ...publishedItems.map((i) => i.itemId).filter((id) => !draftItems.some((d) => d.itemId === id)),
            ];
            return (
              <Stack key={name} gap={4}>
                <Text fw={600} ff="monospace" size="sm">
                  {name}{' '}
                  <Text span size="xs" c="dimmed" ff="text">
                    ({draftItems.length} in the draft, {publishedItems.length} published)
                  </Text>
                </Text>
                <Table withTableBorder layout="fixed" aria-label={`Collection ${name}`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w="20%">Item</Table.Th>
                      <Table.Th>Draft</Table.Th>
                      <Table.Th>Published</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {ids.map((itemId) => {
                      const d = draftItems.find((i) => i.itemId === itemId)?.value;
                      const p = publishedItems.find((i) => i.itemId === itemId)?.value;
                      return (
                        <Table.Tr
                          key={itemId}
                          className={canonical(d) !== canonical(p) ? 'folio-changed' : undefined}
                        >
                          <Table.Td ff="monospace">{itemId}</Table.Td>
                          <Table.Td>{show(d)}</Table.Td>
                          <Table.Td>{show(p)}</Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Stack>
            );
          })
        )}
      </Stack>
      <ConfirmDialog
        opened={confirm}
        title={`Delete ${draft.type}/${draft.id}?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        error={alertOf(remove.error)}
        onConfirm={onDelete}
        onClose={() => {
          setConfirm(false);
          remove.reset();
        }}
      >
        Its draft and published fields and collections are removed; the site stops showing it at once (the
        snapshot and webhooks announce it). A later save with the same type and id creates it anew. This
        cannot be undone.
      </ConfirmDialog>
    </Paper>
  );
}
