import { Anchor, Badge, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { AdminOnly } from '../../../components/AdminOnly';
import { ShownOnce } from '../../../components/ShownOnce';
import { formatTime } from '../../../lib/format';
import { useWebhooks, useWebhookWrites } from '../api/webhooks.api';
import { WebhookForm } from '../components/WebhookForm';

/** The project's webhooks; "Create webhook" asks for URL, events and description and shows the secret once. */
export function WebhooksRoute() {
  const projectId = useParams().projectId!;
  return (
    <AdminOnly
      projectId={projectId}
      title="Webhooks"
      why="Webhooks tell other systems when content changes; admins set them up."
    >
      <Webhooks projectId={projectId} />
    </AdminOnly>
  );
}

function Webhooks({ projectId }: { projectId: string }) {
  const list = useWebhooks(projectId);
  const { create } = useWebhookWrites(projectId);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  const close = () => {
    setCreating(false);
    setSecret(null);
    create.reset();
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Webhooks</Title>
        <Button onClick={() => setCreating(true)} disabled={!list.data}>
          Create webhook
        </Button>
      </Group>
      <Text size="sm">
        Folio sends each event to every active webhook that listens for it, signed with the webhook's secret,
        and retries failures for about three days.
      </Text>
      {!list.data ? (
        <QueryState query={list} what="the webhooks" />
      ) : list.data.webhooks.length === 0 ? (
        <Text>No webhooks yet.</Text>
      ) : (
        <Table striped highlightOnHover aria-label="Webhooks">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>URL</Table.Th>
              <Table.Th>Events</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.webhooks.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td maw={320}>
                  <Anchor component={Link} to={w.id} ff="monospace" size="sm" className="folio-break">
                    {w.url}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {w.events.includes('*') ? 'every event' : w.events.join(', ')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {w.description || (
                    <Text span c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={w.active ? 'green' : 'gray'} variant="light" c="dark">
                    {w.active ? 'active' : 'inactive'}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatTime(w.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        opened={creating}
        onClose={close}
        title={secret ? 'Webhook created' : 'Create a webhook'}
        size="lg"
      >
        {secret ? (
          <Stack>
            <ShownOnce
              label="Signing secret"
              value={secret.secret}
              note="Your receiver verifies each request with it (Standard Webhooks). It is shown only once; “Rotate secret” makes a new one."
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Done
              </Button>
              <Button component={Link} to={secret.id}>
                Open the webhook
              </Button>
            </Group>
          </Stack>
        ) : (
          list.data && (
            <WebhookForm
              catalog={list.data.eventTypes}
              submitLabel="Create webhook"
              busy={create.isPending}
              error={create.error}
              onCancel={close}
              onSubmit={(body) =>
                create.mutate(body, { onSuccess: (w) => setSecret({ id: w.id, secret: w.secret }) })
              }
            />
          )
        )}
      </Modal>
    </Stack>
  );
}
