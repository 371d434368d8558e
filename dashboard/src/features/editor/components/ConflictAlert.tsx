import { Alert, Button, Group, Text } from '@mantine/core';
import { formatTime } from '../../../lib/format';
import type { ChangedBy } from '../api/entries.api';

/**
 * A 412: someone changed the entry after this editor loaded it. Nothing was written. "Reload" drops
 * the editor's changes for the current copy; "Overwrite" sends them again over the current version.
 */
export function ConflictAlert({
  changedBy,
  busy,
  onReload,
  onOverwrite,
}: {
  changedBy: ChangedBy;
  busy: boolean;
  onReload(): void;
  onOverwrite(): void;
}) {
  const who = changedBy.who ?? 'Someone else';
  const when = changedBy.at ? ` at ${formatTime(changedBy.at)}` : '';
  return (
    <Alert color="orange" role="alert" title="This entry was changed by someone else">
      <Text size="sm" mb="xs">
        {who} changed it{when}
        {changedBy.currentVersion !== null ? ` (now version ${changedBy.currentVersion})` : ''} while you were
        editing. Nothing of yours was saved yet.
      </Text>
      <Group>
        <Button size="xs" variant="default" onClick={onReload} disabled={busy}>
          Reload
        </Button>
        <Button size="xs" color="orange" onClick={onOverwrite} loading={busy}>
          Overwrite
        </Button>
      </Group>
    </Alert>
  );
}
