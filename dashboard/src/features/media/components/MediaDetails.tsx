import { Button, CopyButton, Group, Image, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatBytes, formatTime } from '../../../lib/format';
import { type MediaItem, useDeleteMedia } from '../api/media.api';

/** One image: a larger preview, its size, dimensions and URL (with Copy), and Delete (asked first). */
export function MediaDetails({
  projectId,
  item,
  onClose,
}: {
  projectId: string;
  item: MediaItem | null;
  onClose(): void;
}) {
  const remove = useDeleteMedia(projectId);
  const [confirming, setConfirming] = useState(false);
  const close = () => {
    setConfirming(false);
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={item !== null} onClose={close} title={item?.filename ?? ''} size="lg">
      {item && (
        <Stack>
          <Image
            src={`${item.url}?w=720&h=400&fit=inside`}
            alt={item.filename}
            mah={400}
            fit="contain"
            bg="gray.1"
            radius="sm"
          />
          <Table variant="vertical" withTableBorder layout="fixed">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={140}>Size</Table.Th>
                <Table.Td>{formatBytes(item.size)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Dimensions</Table.Th>
                <Table.Td>
                  {item.width} × {item.height} px
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Type</Table.Th>
                <Table.Td>{item.mimeType}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Uploaded</Table.Th>
                <Table.Td>{formatTime(item.createdAt)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Group align="end" wrap="nowrap">
            <TextInput
              label="URL"
              description="Add ?w= (and h, fit, format) for a resized variant"
              value={item.url}
              readOnly
              flex={1}
              classNames={{ input: 'folio-mono' }}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton value={item.url}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'light' : 'default'}
                  color={copied ? 'green' : undefined}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy URL'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <ErrorAlert error={remove.error} title="Not deleted" />
          {confirming ? (
            <Stack gap="xs" p="sm" bg="red.0">
              <Text size="sm" fw={600}>
                Delete {item.filename}?
              </Text>
              <Text size="sm">
                The file and its resized variants are removed at once; pages that still use its URL show a
                broken image. This cannot be undone.
              </Text>
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setConfirming(false)}>
                  Cancel
                </Button>
                <Button
                  color="red"
                  loading={remove.isPending}
                  onClick={() => remove.mutate(item.id, { onSuccess: close })}
                >
                  Delete
                </Button>
              </Group>
            </Stack>
          ) : (
            <Group justify="flex-end">
              <Button color="red" variant="light" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}
