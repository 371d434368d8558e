import { Badge, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatTime } from '../../../lib/format';
import { type Schedule, useCancelSchedule, useSchedules } from '../api/schedules.api';

const STATUS_COLOR = { pending: 'blue', done: 'green', failed: 'red', canceled: 'gray' } as const;

/**
 * The schedules of one page (its own and its entries'): pending ones with Cancel, then the latest
 * outcomes. When one runs, `onRan` lets the editor reload the entries it changed.
 */
export function ScheduledList({
  projectId,
  pageId,
  entries,
  onRan,
}: {
  projectId: string;
  pageId: string;
  /** Entry id to its instance key, for the entries of this page. */
  entries: Map<string, string>;
  onRan(): void;
}) {
  const schedules = useSchedules(projectId);
  const cancel = useCancelSchedule(projectId);
  const mine = (schedules.data ?? []).filter((s) =>
    s.pageId !== null ? s.pageId === pageId : s.entryId !== null && entries.has(s.entryId),
  );
  const pending = new Set(mine.filter((s) => s.status === 'pending').map((s) => s.id));

  // A schedule that was pending and is no longer (it ran): the entries on screen are out of date.
  const before = useRef<Set<string>>(pending);
  useEffect(() => {
    const ran = [...before.current].some((id) => !pending.has(id));
    before.current = pending;
    if (ran) onRan();
  });

  if (mine.length === 0) return null;
  const label = (s: Schedule) =>
    s.pageId !== null ? `every draft of ${s.pageId}` : (entries.get(s.entryId!) ?? s.entryId!);
  const recent = mine.filter((s) => s.status !== 'pending').slice(0, 5);
  const shown = [...mine.filter((s) => s.status === 'pending'), ...recent];

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="scheduled-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="scheduled-title">
          Scheduled
        </Title>
        <ErrorAlert error={cancel.error} title="Not canceled" />
        <Table aria-label="Schedules of this page" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Cancel</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>{formatTime(s.at)}</Table.Td>
                <Table.Td>
                  {s.action === 'publish' ? 'Publish' : 'Unpublish'} {label(s)}
                  {s.locale !== undefined && (s.locale === '*' ? ' in every language' : ` in ${s.locale}`)}
                </Table.Td>
                <Table.Td>{s.createdBy.email}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLOR[s.status]} variant="light" c="dark">
                    {s.status}
                  </Badge>
                  {s.error && (
                    <Text size="xs" c="red.9">
                      {s.error}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {s.status === 'pending' && (
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Cancel the ${s.action} of ${label(s)}${s.locale ? ` (${s.locale === '*' ? 'every language' : s.locale})` : ''} at ${formatTime(s.at)}`}
                      loading={cancel.isPending && cancel.variables === s.id}
                      onClick={() =>
                        cancel.mutate(s.id, {
                          onSuccess: () => notifications.show({ message: 'Schedule canceled' }),
                        })
                      }
                    >
                      Cancel
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
