import { Alert, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { formatBytes } from '../../../lib/format';
import type { Upload } from '../api/upload-queue';

const statusText = (u: Upload) =>
  u.status === 'queued'
    ? 'Waiting'
    : u.status === 'uploading'
      ? `Uploading… ${Math.round(u.progress * 100)}%`
      : u.status === 'done'
        ? 'Uploaded'
        : 'Failed';

/** One row per file sent in this visit: a progress bar each, the error of a failed one, Retry where it may help. */
export function UploadList({
  uploads,
  onRetry,
  onClear,
}: {
  uploads: Upload[];
  onRetry(upload: Upload): void;
  onClear(): void;
}) {
  if (uploads.length === 0) return null;
  const finished = uploads.filter((u) => u.status === 'done' || u.status === 'failed').length;
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label="Uploads">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} size="sm">
            Uploads: {finished} of {uploads.length} finished
          </Text>
          <Button size="xs" variant="subtle" onClick={onClear} disabled={finished === 0}>
            Clear finished
          </Button>
        </Group>
        {uploads.map((u) => (
          <Stack key={u.key} gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" truncate>
                {u.file.name}{' '}
                <Text span size="xs" c="dimmed">
                  ({formatBytes(u.file.size)})
                </Text>
              </Text>
              <Text size="xs" c={u.status === 'failed' ? 'red.9' : 'dimmed'}>
                {statusText(u)}
              </Text>
            </Group>
            <Progress
              aria-label={`Upload of ${u.file.name}`}
              value={Math.round(u.progress * 100)}
              color={u.status === 'failed' ? 'red' : u.status === 'done' ? 'green' : 'blue'}
              size="sm"
              animated={u.status === 'uploading'}
            />
            {u.status === 'failed' && (
              <Alert color="red" role="alert" p="xs" title={`${u.file.name} was not uploaded`}>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm">{u.error}</Text>
                  {!u.permanent && (
                    <Button size="xs" variant="white" onClick={() => onRetry(u)}>
                      Retry
                    </Button>
                  )}
                </Group>
              </Alert>
            )}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
