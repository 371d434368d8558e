import { Alert } from '@mantine/core';
import { useCallback, useSyncExternalStore } from 'react';
import { drafts } from '../lib/drafts';

/**
 * Said while an entry's unsaved edits could not be backed up in the browser (its storage is full,
 * lib/drafts.ts): the editor must know that a reload or a closed tab now loses them. Before issue 44
 * the backup stopped without a word and a reload restored an older text.
 */
export function DraftBackupWarning({
  projectId,
  entryId,
  locale,
}: {
  projectId: string;
  entryId: string;
  locale?: string | undefined;
}) {
  const unbacked = useSyncExternalStore(
    drafts.subscribe,
    useCallback(() => drafts.unbacked(projectId, entryId, locale), [projectId, entryId, locale]),
  );
  if (!unbacked) return null;
  return (
    <Alert color="orange" role="alert" title="Your changes are not backed up">
      This browser's storage is full, so the unsaved changes to this entry are not backed up: a reload or a
      closed tab would lose them. They are still here; save the draft to keep them.
    </Alert>
  );
}
