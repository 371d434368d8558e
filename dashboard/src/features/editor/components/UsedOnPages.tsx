import { Button, Stack, Text } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { usedOn, useEntryReferences } from '../api/references.api';
import { ReferrersList } from './ReferrersList';

/**
 * "Used on N pages" on an entry's form (contract §13, `GET /v1/content/:entryId/references`): a button
 * that shows or hides the referring pages, each a link to its editor. It asks the API only once its form
 * comes near the screen, so a page of 100 entries does not send 100 requests as it opens.
 */
export function UsedOnPages({
  projectId,
  entryId,
  name,
}: {
  projectId: string;
  entryId: string;
  name: string;
}) {
  const anchor = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [open, setOpen] = useState(false);
  const listId = useId();
  useEffect(() => {
    const element = anchor.current;
    if (!element || near) return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '400px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  const references = useEntryReferences(projectId, entryId, near);
  // A shared page's entry (`@site`'s menu) is read by the site itself, usually by a layout on every
  // page, without a reference the API could list: "Used on no page" told editors it was unused.
  const pageId = useParams().pageId ?? '';
  const shared = pageId.startsWith('@');
  const pages = references.data ? usedOn(references.data) : null;

  return (
    <Stack ref={anchor} gap={4} align="flex-start">
      {pages === null ? (
        <Text size="sm" c="dimmed" aria-hidden>
          Used on …
        </Text>
      ) : pages.length === 0 ? (
        <Text size="sm" c="dimmed">
          {shared
            ? `Shared: no page refers to it, so it shows wherever the site reads ${pageId} itself (a menu or footer in its layout: often every page).`
            : 'Used on no page'}
        </Text>
      ) : (
        <>
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((o) => !o)}
          >
            Used on {pages.length} {pages.length === 1 ? 'page' : 'pages'}
          </Button>
          {open && (
            <section id={listId} aria-label={`Pages that use ${name}`}>
              <ReferrersList projectId={projectId} pages={pages} />
            </section>
          )}
        </>
      )}
    </Stack>
  );
}
