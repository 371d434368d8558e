import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Site } from '../api/entries.api';
import { forgetPage, useDeletePage } from '../api/entry-mutations';
import { DeleteDialog } from './DeleteDialog';

/**
 * "Delete" for a whole page (admins; DELETE /v1/pages/:pageId): the confirmation names the page and how
 * many entries go with it; then `onDeleted` (the page screen goes back to the pages list). The page's
 * unsaved drafts go too, since their entries no longer exist. A refusal stays in the dialog (role alert)
 * so the admin can retry or cancel; when published content of other pages refers to the page's entries,
 * the dialog names it and offers Delete anyway.
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
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const deletePage = useDeletePage(site, pageId, entryIds);
  const count = entryIds.length;

  const remove = (force: boolean) =>
    deletePage.mutate(
      { force },
      {
        onSuccess: (result) => {
          notifications.show({
            message: `Page ${pageId} deleted (${result.deleted.length} ${result.deleted.length === 1 ? 'entry' : 'entries'}).`,
          });
          onDeleted();
          // Gone from the server: forget the page's cached entries rather than show them if it comes back.
          forgetPage(queryClient, site, pageId);
        },
      },
    );

  return (
    <>
      <Button color="red" variant="light" onClick={() => setOpened(true)}>
        Delete
      </Button>
      {opened && (
        <DeleteDialog
          site={site}
          title={`Delete the page ${pageId}?`}
          busy={deletePage.isPending}
          error={deletePage.error}
          onDelete={remove}
          onClose={() => {
            setOpened(false);
            deletePage.reset();
          }}
        >
          The page <code>{pageId}</code> and its {count} {count === 1 ? 'entry' : 'entries'} are removed with
          their definitions and history; whatever of it is live, visitors stop seeing. A later sync of the
          page's components creates new, empty entries. This cannot be undone.
        </DeleteDialog>
      )}
    </>
  );
}
