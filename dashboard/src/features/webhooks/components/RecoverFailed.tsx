import { Button, Group, NativeSelect } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useWebhookWrites } from '../api/webhooks.api';

const HOUR = 3_600_000;
const SINCE = [
  { value: String(HOUR), label: 'the last hour' },
  { value: String(24 * HOUR), label: 'the last 24 hours' },
  { value: String(7 * 24 * HOUR), label: 'the last 7 days' },
  { value: String(30 * 24 * HOUR - 60_000), label: 'the last 30 days' },
];

/** After a receiver outage: every failed delivery since a time is sent again (contract §12). */
export function RecoverFailed({ projectId, webhookId }: { projectId: string; webhookId: string }) {
  const { recover } = useWebhookWrites(projectId);
  const [within, setWithin] = useState(SINCE[1]!.value);
  const run = () =>
    recover.mutate(
      { id: webhookId, since: new Date(Date.now() - Number(within)).toISOString() },
      {
        onSuccess: ({ requeued }) =>
          notifications.show({
            message:
              requeued === 0
                ? 'No failed deliveries in that time.'
                : `${requeued} failed ${requeued === 1 ? 'delivery' : 'deliveries'} queued again.`,
          }),
      },
    );
  return (
    <>
      <Group align="end" gap="xs">
        <NativeSelect
          label="Failed deliveries from"
          data={SINCE}
          value={within}
          onChange={(e) => setWithin(e.currentTarget.value)}
        />
        <Button variant="default" onClick={run} loading={recover.isPending}>
          Recover failed
        </Button>
      </Group>
      <ErrorAlert error={recover.error} title="Nothing recovered" />
    </>
  );
}
