import { Badge, Button, Table, Text } from '@mantine/core';
import { formatMaybe } from '../../../lib/format';
import type { Delivery } from '../api/webhooks.api';

const STATUS_COLOR = { pending: 'blue', succeeded: 'green', failed: 'red' } as const;

/**
 * Deliveries with their outcome. Any can be sent again ("Redeliver"): a failed one after a fix, a
 * succeeded one to replay it, a pending one waiting for its next retry to go now.
 */
export function DeliveriesTable({
  deliveries,
  redelivering,
  onRedeliver,
}: {
  deliveries: Delivery[];
  redelivering: string | null;
  onRedeliver(delivery: Delivery): void;
}) {
  return (
    <Table striped aria-label="Deliveries" fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Event</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Response</Table.Th>
          <Table.Th>Attempts</Table.Th>
          <Table.Th>Duration</Table.Th>
          <Table.Th>Last attempt</Table.Th>
          <Table.Th>Next attempt</Table.Th>
          <Table.Th>Redeliver</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {deliveries.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {d.eventType}
              </Text>
              <Text size="xs" c="dimmed" ff="monospace">
                {d.id}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge color={STATUS_COLOR[d.status]} variant="light" c="dark">
                {d.status}
              </Badge>
              {d.error && (
                <Text size="xs" c="red.9" maw={220} className="folio-break">
                  {d.error}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{d.responseCode ?? '—'}</Table.Td>
            <Table.Td>{d.attemptCount}</Table.Td>
            <Table.Td>{d.durationMs === null ? '—' : `${d.durationMs} ms`}</Table.Td>
            <Table.Td>{formatMaybe(d.lastAttemptAt)}</Table.Td>
            <Table.Td>{d.status === 'pending' ? formatMaybe(d.nextAttemptAt, 'now') : '—'}</Table.Td>
            <Table.Td>
              <Button
                size="xs"
                variant="default"
                loading={redelivering === d.id}
                onClick={() => onRedeliver(d)}
              >
                Redeliver
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
