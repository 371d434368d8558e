import { Anchor, Badge, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { formatTime } from '../../../lib/format';
import { pagePath, usePages } from '../api/pages.api';

/** The project's pages with their counts; a page opens its editor. */
export function PagesRoute() {
  const projectId = useParams().projectId!;
  const pages = usePages(projectId);

  return (
    <Stack>
      <Title order={1}>Pages</Title>
      {!pages.data ? (
        <QueryState query={pages} what="the pages" />
      ) : pages.data.length === 0 ? (
        <Text>
          No pages yet. Pages appear when your site registers its components (the SDK's definitions sync, POST
          /v1/definitions/sync).
        </Text>
      ) : (
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Page</Table.Th>
              <Table.Th>Components</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Last change</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pages.data.map((page) => (
              <Table.Tr key={page.pageId}>
                <Table.Td>
                  <Anchor component={Link} to={pagePath(projectId, page.pageId)} ff="monospace">
                    {page.pageId}
                  </Anchor>
                </Table.Td>
                <Table.Td>{page.components}</Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    <Badge color="green" variant="light">
                      {page.published} published
                    </Badge>
                    {page.drafts > 0 && (
                      <Badge color="yellow" variant="light" c="dark">
                        {page.drafts} {page.drafts === 1 ? 'draft' : 'drafts'}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{formatTime(page.updatedAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
