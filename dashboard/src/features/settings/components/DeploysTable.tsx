import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { QueryState } from '../../../app/QueryState';
import { formatMaybe, formatTime } from '../../../lib/format';
import { useDeploys } from '../api/settings.api';

const STATUS_COLOR = { pending: 'blue', succeeded: 'green', failed: 'red' } as const;

/** Every call of the deploy hooks, newest first, with its outcome. */
export function DeploysTable({ projectId }: { projectId: string }) {
  const deploys = useDeploys(projectId);
  const items = deploys.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="deploys-title">
      <Stack>
        <Title order={2} size="h3" id="deploys-title">
          Deploys
        </Title>
        {!deploys.data ? (
          <QueryState query={deploys} what="the deploys" />
        ) : items.length === 0 ? (
          <Text c="dimmed">No deploys yet: a publish calls the deploy hooks.</Text>
        ) : (
          <Table striped aria-label="Deploys" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Hook</Table.Th>
                <Table.Th>Because of</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Response</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Requested</Table.Th>
                <Table.Th>Next attempt</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td ff="monospace">{d.hookId}</Table.Td>
                  <Table.Td ff="monospace">{d.reasons.join(', ')}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[d.status]} variant="light" c="dark">
                      {d.status}
                    </Badge>
                    {d.error && (
                      <Text size="xs" c="red.9" className="folio-break">
                        {d.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{d.responseCode ?? '—'}</Table.Td>
                  <Table.Td>{d.attemptCount}</Table.Td>
                  <Table.Td>{d.durationMs === null ? '—' : `${d.durationMs} ms`}</Table.Td>
                  <Table.Td>{formatTime(d.requestedAt)}</Table.Td>
                  <Table.Td>{d.status === 'pending' ? formatMaybe(d.nextAttemptAt, 'now') : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {deploys.hasNextPage && (
          <Group justify="center">
            <Button
              variant="default"
              onClick={() => void deploys.fetchNextPage()}
              loading={deploys.isFetchingNextPage}
            >
              Load more
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
