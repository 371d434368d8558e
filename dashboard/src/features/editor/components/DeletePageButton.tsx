import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { alertOf } from '../../../lib/api';
import { useApi } from '../../auth';
import { pageKeys } from '../../pages';
import { entryKeys, entryWrites, type Site } from '../api/entries.api';
import { drafts } from '../lib/drafts';

/**
 * "Delete" for a whole page (admins; DELETE /v1/pages/:pageId): the confirmation names the page and how
 * many entries go with it; then `onDeleted` (the page screen goes back to the pages list). The page's
 * unsaved drafts go too, since their entries no longer exist. A refusal stays in the dialog (role alert) so the admin can retry or cancel.
 */
export function DeletePageButton({
  site,
  pageId,
  entryIds,
  onDeleted,
}: {
  site: Site;
  pageId: string;
  entryIds: readonly string[];
  onDeleted(): void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const count = entryIds.length;

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await entryWrites(api, site).removePage(pageId);
      for (const id of entryIds) drafts.remove(site.projectId, id);
      await queryClient.invalidateQueries({ queryKey: pageKeys.list(site.projectId) });
      notifications.show({
        message: `Page ${pageId} deleted (${result.deleted.length} ${result.deleted.length === 1 ? 'entry' : 'entries'}).`,
      });
      onDeleted();
      // Gone from the server: forget the page's cached entries rather than show them if it comes back.
      queryClient.removeQueries({ queryKey: entryKeys.page(site.projectId, pageId) });
    } catch (err) {
      setError(alertOf(err));
      setBusy(false);
    }
  };

  return (
    <>
      <Button color="red" variant="light" onClick={() => setOpened(true)}>
        Delete
      </Button>
      {opened && (
        <ConfirmDialog
          opened
          title={`Delete the page ${pageId}?`}
          confirmLabel="Delete"
          busy={busy}
          error={error}
          onConfirm={() => void remove()}
          onClose={() => {
            setOpened(false);
            setError(null);
          }}
        >
          The page <code>{pageId}</code> and its {count} {count === 1 ? 'entry' : 'entries'} are removed with
          their definitions and history; whatever of it is live, visitors stop seeing. A later sync of the
          page's components creates new, empty entries. This cannot be undone.
        </ConfirmDialog>
      )}
    </>
  );
}
