import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { alertOf } from '../../../lib/api';
import type { Site } from '../api/entries.api';
import { REFERRERS_NAMED, type Referrer, referencedBy, usedOn, useReferrers } from '../api/references.api';
import { ReferrersList } from './ReferrersList';

/**
 * The confirmation of deleting an entry or a page. A plain delete is Cancel or Delete, as before. When
 * published content of other entries refers to what would go, the API answers 409 with their ids and
 * deletes nothing: the dialog then names them (their pages, as links, and the entries) and offers
 * **Delete anyway** (`?force=true`), after which those references read as missing.
 */
export function DeleteDialog({
  site,
  title,
  children,
  busy,
  error,
  onDelete,
  onClose,
}: {
  site: Site;
  title: string;
  children: ReactNode;
  busy: boolean;
  /** The last attempt's error (a mutation's), if any. */
  error: unknown;
  onDelete(force: boolean): void;
  onClose(): void;
}) {
  const ids = referencedBy(error);
  const referrers = useReferrers(site, ids);
  const message = ids ? null : alertOf(error);
  const named = (referrers.data ?? []).filter((r): r is Referrer => 'pageId' in r);
  const unreadable = (referrers.data?.length ?? 0) - named.length;
  const pages = usedOn(named);
  const more = ids ? ids.length - Math.min(ids.length, REFERRERS_NAMED) + unreadable : 0;

  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack>
        <Text size="sm" component="div">
          {children}
        </Text>
        {ids && (
          <Alert color="orange" role="alert" title="Published content refers to this">
            <Stack gap="xs">
              <Text size="sm">
                {ids.length === 1
                  ? 'One entry refers to it in its published copy'
                  : `${ids.length} entries refer to it in their published copies`}
                , so nothing was deleted:
              </Text>
              {referrers.isPending ? (
                <Loader size="sm" aria-label="Loading what refers to it" role="status" />
              ) : (
                <ReferrersList projectId={site.projectId} pages={pages} />
              )}
              {more > 0 && <Text size="sm">and {more} more.</Text>}
              <Text size="sm">
                <strong>Delete anyway</strong> leaves those references missing: visitors see nothing there
                until the entries are edited and published again.
              </Text>
            </Stack>
          </Alert>
        )}
        {message && (
          <Alert color="red" role="alert" title="It did not work">
            {message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={() => onDelete(ids !== null)} loading={busy}>
            {ids ? 'Delete anyway' : 'Delete'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
