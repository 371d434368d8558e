import type { Schemas } from '@folio/client';
import { Anchor, Badge, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { LoadMore } from '../../../components/LoadMore';
import { formatTime } from '../../../lib/format';
import { pagePath, usePages, useSharedPages } from '../api/pages.api';

type PageSummary = Schemas['PageSummary'];

/**
 * The project's pages with their counts, searched and read an answer at a time ("Load more"); shared
 * pages (`@site`) apart, above: they are no route of the site but hold what every page shows.
 */
export function PagesRoute() {
  const projectId = useParams().projectId!;
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const pages = usePages(projectId, q);
  const shared = useSharedPages(projectId);
  const sitePages = (pages.data?.pages ?? []).flatMap((p) => p.items).filter((p) => !p.shared);

  return (
    <Stack>
      <Title order={1}>Pages</Title>
      {shared.data && shared.data.length > 0 && (
        <section aria-labelledby="shared-pages">
          <Title order={2} size="h3" id="shared-pages" mb="xs">
            Shared content
          </Title>
          <Text size="sm" c="dimmed" mb="xs">
            Shown on every page of the site (a menu, a footer); not a page of its own.
          </Text>
          <PagesTable projectId={projectId} pages={shared.data} caption="Shared content" />
        </section>
      )}
      <section aria-labelledby="site-pages">
        <Title order={2} size="h3" id="site-pages" mb="xs">
          Site pages
        </Title>
        <TextInput
          type="search"
          label="Search pages"
          description="Pages whose path contains this text"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maw={420}
          mb="sm"
        />
        {!pages.data ? (
          <QueryState query={pages} what="the pages" />
        ) : sitePages.length === 0 ? (
          <Text>
            {q
              ? `No page’s path contains “${q}”.`
              : 'No pages yet. Pages appear when your site registers its components (the SDK’s definitions sync, POST /v1/definitions/sync).'}
          </Text>
        ) : (
          <>
            <PagesTable projectId={projectId} pages={sitePages} caption="Site pages" />
            <Group>
              <Text size="sm" role="status">
                {sitePages.length} {sitePages.length === 1 ? 'page' : 'pages'} shown
                {pages.hasNextPage ? ', more remain' : ''}
              </Text>
              <LoadMore pages={pages} />
            </Group>
          </>
        )}
      </section>
    </Stack>
  );
}

function PagesTable({
  projectId,
  pages,
  caption,
}: {
  projectId: string;
  pages: PageSummary[];
  caption: string;
}) {
  return (
    <Table striped highlightOnHover aria-label={caption}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Page</Table.Th>
          <Table.Th>Components</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Last change</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {pages.map((page) => (
          <Table.Tr key={page.pageId}>
            <Table.Td>
              <Anchor component={Link} to={pagePath(projectId, page.pageId)} ff="monospace">
                {page.pageId}
              </Anchor>
            </Table.Td>
            <Table.Td>{page.components}</Table.Td>
            <Table.Td>
              {page.locales ? (
                // A project with languages: each one's counts (issue 36), the default first.
                <Stack
                  gap={4}
                  component="ul"
                  aria-label={`Status of ${page.pageId} per language`}
                  p={0}
                  m={0}
                >
                  {page.locales.map((l) => (
                    <Group key={l.code} gap="xs" wrap="nowrap" component="li" style={{ listStyle: 'none' }}>
                      <Text span size="sm" ff="monospace" miw={48}>
                        {l.code}
                      </Text>
                      <Counts published={l.published} drafts={l.drafts} />
                    </Group>
                  ))}
                </Stack>
              ) : (
                <Group gap="xs">
                  <Counts published={page.published} drafts={page.drafts} />
                </Group>
              )}
            </Table.Td>
            <Table.Td>{formatTime(page.updatedAt)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A page's (or one language's) published entries and drafts, as badges. */
function Counts({ published, drafts }: { published: number; drafts: number }) {
  return (
    <>
      <Badge color="green" variant="light">
        {published} published
      </Badge>
      {drafts > 0 && (
        <Badge color="yellow" variant="light" c="dark">
          {drafts} {drafts === 1 ? 'draft' : 'drafts'}
        </Badge>
      )}
    </>
  );
}
