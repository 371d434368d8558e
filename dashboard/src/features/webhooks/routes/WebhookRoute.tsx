import { Anchor, Badge, Breadcrumbs, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { AdminOnly } from '../../../components/AdminOnly';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ShownOnce } from '../../../components/ShownOnce';
import { alertOf } from '../../../lib/api';
import {
  type Delivery,
  useDeliveries,
  useWebhooks,
  useWebhookWrites,
  type Webhook,
} from '../api/webhooks.api';
import { DeliveriesTable } from '../components/DeliveriesTable';
import { RecoverFailed } from '../components/RecoverFailed';
import { TestOutcome } from '../components/TestOutcome';
import { WebhookForm } from '../components/WebhookForm';

/** One webhook: Send test, edit, activate or deactivate, rotate its secret, delete; its deliveries. */
export function WebhookRoute() {
  const params = useParams();
  const projectId = params.projectId!;
  return (
    <AdminOnly projectId={projectId} title="Webhook" why="Webhooks are set up by admins.">
      <WebhookScreen projectId={projectId} webhookId={params.webhookId!} />
    </AdminOnly>
  );
}

function WebhookScreen({ projectId, webhookId }: { projectId: string; webhookId: string }) {
  const list = useWebhooks(projectId);
  const webhook = list.data?.webhooks.find((w) => w.id === webhookId);
  const crumbs = (
    <Breadcrumbs>
      <Anchor component={Link} to={`/p/${projectId}/webhooks`}>
        Webhooks
      </Anchor>
      <Text ff="monospace">{webhookId}</Text>
    </Breadcrumbs>
  );
  if (!list.data) {
    return (
      <Stack>
        {crumbs}
        <QueryState query={list} what="the webhook" />
      </Stack>
    );
  }
  if (!webhook) {
    return (
      <Stack>
        {crumbs}
        <Title order={1}>Webhook not found</Title>
        <Text>It may have been deleted.</Text>
      </Stack>
    );
  }
  return (
    <Stack>
      {crumbs}
      <WebhookPanel projectId={projectId} webhook={webhook} catalog={list.data.eventTypes} />
      <Deliveries projectId={projectId} webhookId={webhook.id} />
    </Stack>
  );
}

function WebhookPanel({
  projectId,
  webhook,
  catalog,
}: {
  projectId: string;
  webhook: Webhook;
  catalog: { type: string; description: string }[];
}) {
  const navigate = useNavigate();
  const writes = useWebhookWrites(projectId);
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [tested, setTested] = useState<Delivery | null>(null);
  const closeConfirm = () => {
    setConfirm(null);
    writes.rotateSecret.reset();
    writes.remove.reset();
  };

  return (
    <Stack>
      <Group justify="space-between" align="start">
        <Stack gap={4}>
          <Title order={1} size="h2" ff="monospace" className="folio-break">
            {webhook.url}
          </Title>
          <Group gap="xs">
            <Badge color={webhook.active ? 'green' : 'gray'} variant="light" c="dark">
              {webhook.active ? 'active' : 'inactive'}
            </Badge>
            <Text size="sm" ff="monospace">
              {webhook.events.includes('*') ? 'every event' : webhook.events.join(', ')}
            </Text>
          </Group>
          {webhook.description && <Text size="sm">{webhook.description}</Text>}
        </Stack>
      </Group>
      <Group gap="xs">
        <Button
          onClick={() => writes.test.mutate(webhook.id, { onSuccess: setTested })}
          loading={writes.test.isPending}
        >
          Send test
        </Button>
        <Button variant="default" onClick={() => setEditing(true)}>
          Edit
        </Button>
        <Button
          variant="default"
          loading={writes.update.isPending && !editing}
          onClick={() =>
            writes.update.mutate(
              { id: webhook.id, body: { active: !webhook.active } },
              {
                onSuccess: (w) =>
                  notifications.show({ message: w.active ? 'Webhook activated' : 'Webhook deactivated' }),
              },
            )
          }
        >
          {webhook.active ? 'Deactivate' : 'Activate'}
        </Button>
        <Button variant="default" onClick={() => setConfirm('rotate')}>
          Rotate secret
        </Button>
        <Button color="red" variant="light" onClick={() => setConfirm('delete')}>
          Delete
        </Button>
      </Group>
      {!editing && <ErrorAlert error={writes.update.error} title="Not changed" />}
      <ErrorAlert error={writes.test.error} title="Test not sent" />
      {tested && <TestOutcome delivery={tested} />}
      {secret && (
        <ShownOnce
          label="New signing secret"
          value={secret}
          note="From now on every attempt is signed with this secret only: give it to your receiver. It is shown only once."
          onDone={() => setSecret(null)}
        />
      )}

      <Modal
        opened={editing}
        onClose={() => {
          setEditing(false);
          writes.update.reset();
        }}
        title="Edit the webhook"
        size="lg"
      >
        <WebhookForm
          catalog={catalog}
          initial={webhook}
          submitLabel="Save"
          busy={writes.update.isPending}
          error={writes.update.error}
          onCancel={() => setEditing(false)}
          onSubmit={(body) =>
            writes.update.mutate(
              { id: webhook.id, body },
              {
                onSuccess: () => {
                  setEditing(false);
                  notifications.show({ message: 'Webhook saved' });
                },
              },
            )
          }
        />
      </Modal>
      <ConfirmDialog
        opened={confirm === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        danger={false}
        busy={writes.rotateSecret.isPending}
        error={alertOf(writes.rotateSecret.error)}
        onClose={closeConfirm}
        onConfirm={() =>
          writes.rotateSecret.mutate(webhook.id, {
            onSuccess: ({ secret }) => {
              setSecret(secret);
              setConfirm(null);
            },
          })
        }
      >
        A new secret signs every attempt from now on, retries included; the receiver must be given it, or it
        will reject what Folio sends.
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirm === 'delete'}
        title="Delete this webhook?"
        confirmLabel="Delete"
        busy={writes.remove.isPending}
        error={alertOf(writes.remove.error)}
        onClose={closeConfirm}
        onConfirm={() =>
          writes.remove.mutate(webhook.id, {
            onSuccess: () => {
              notifications.show({ message: 'Webhook deleted' });
              navigate(`/p/${projectId}/webhooks`);
            },
          })
        }
      >
        It receives nothing more, and its delivery log is deleted with it. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}

function Deliveries({ projectId, webhookId }: { projectId: string; webhookId: string }) {
  const deliveries = useDeliveries(projectId, webhookId);
  const { redeliver } = useWebhookWrites(projectId);
  const [redelivering, setRedelivering] = useState<string | null>(null);
  const items = deliveries.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack component="section" aria-labelledby="deliveries-title">
      <Group justify="space-between" align="end">
        <Title order={2} size="h3" id="deliveries-title">
          Deliveries
        </Title>
        <RecoverFailed projectId={projectId} webhookId={webhookId} />
      </Group>
      <ErrorAlert error={redeliver.error} title="Not redelivered" />
      {!deliveries.data ? (
        <QueryState query={deliveries} what="the deliveries" />
      ) : items.length === 0 ? (
        <Text>No deliveries yet: events this webhook listens for, and tests, show here.</Text>
      ) : (
        <>
          <DeliveriesTable
            deliveries={items}
            redelivering={redelivering}
            onRedeliver={(d) => {
              setRedelivering(d.id);
              redeliver.mutate(
                { id: webhookId, deliveryId: d.id },
                {
                  onSuccess: () => notifications.show({ message: 'Delivery queued again' }),
                  onSettled: () => setRedelivering(null),
                },
              );
            }}
          />
          {deliveries.hasNextPage && (
            <Group justify="center">
              <Button
                variant="default"
                onClick={() => void deliveries.fetchNextPage()}
                loading={deliveries.isFetchingNextPage}
              >
                Load more
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
