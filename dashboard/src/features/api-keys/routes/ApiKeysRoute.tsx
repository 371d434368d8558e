import { Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { AdminOnly } from '../../../components/AdminOnly';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { alertOf } from '../../../lib/api';
import { formatMaybe, formatTime } from '../../../lib/format';
import { useProjects } from '../../projects';
import { type ApiKey, useApiKeys, useApiKeyWrites } from '../api/api-keys.api';
import { CreateKeyForm } from '../components/CreateKeyForm';

/** The account's secret API keys: create (shown once), the list with prefix and last use, revoke. */
export function ApiKeysRoute() {
  const projectId = useParams().projectId!;
  return (
    <AdminOnly
      projectId={projectId}
      title="API keys"
      why="Secret API keys are made by admins: they read and save a site's data from servers and builds."
    >
      <ApiKeys projectId={projectId} />
    </AdminOnly>
  );
}

function ApiKeys({ projectId }: { projectId: string }) {
  const keys = useApiKeys();
  const projects = useProjects();
  const { revoke } = useApiKeyWrites();
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const adminOf = (projects.data ?? []).filter((p) => p.role === 'admin');
  const nameOf = (id: string) => projects.data?.find((p) => p.id === id)?.name ?? id;

  return (
    <Stack>
      <Title order={1}>API keys</Title>
      <Text size="sm">
        Secret keys let your servers and builds read published content and save objects. They belong to your
        account; this list shows every key you made, whichever site it reaches.
      </Text>
      <CreateKeyForm projectId={projectId} adminOf={adminOf} />
      {!keys.data ? (
        <QueryState query={keys} what="your API keys" />
      ) : keys.data.length === 0 ? (
        <Text>No keys yet.</Text>
      ) : (
        <Table striped aria-label="Your API keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Prefix</Table.Th>
              <Table.Th>Access</Table.Th>
              <Table.Th>Sites</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Revoke</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.data.map((k) => (
              <Table.Tr key={k.id}>
                <Table.Td>{k.name}</Table.Td>
                <Table.Td ff="monospace">{k.prefix}…</Table.Td>
                <Table.Td>{k.access === 'write' ? 'Read & write' : 'Read only'}</Table.Td>
                <Table.Td>
                  {k.scope === 'all' ? (
                    <Badge variant="light" tt="none">
                      Every site I administer
                    </Badge>
                  ) : (
                    k.projectIds.map(nameOf).join(', ')
                  )}
                </Table.Td>
                <Table.Td>{formatTime(k.createdAt)}</Table.Td>
                <Table.Td>{formatMaybe(k.lastUsedAt, 'never')}</Table.Td>
                <Table.Td>
                  <Button size="xs" color="red" variant="light" onClick={() => setRevoking(k)}>
                    Revoke
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmDialog
        opened={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        error={alertOf(revoke.error)}
        onClose={() => {
          setRevoking(null);
          revoke.reset();
        }}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              notifications.show({ message: `Key “${revoking.name}” revoked` });
              setRevoking(null);
            },
          })
        }
      >
        Anything still using this key is refused from its very next request, on every site. This cannot be
        undone: make a new key instead.
      </ConfirmDialog>
    </Stack>
  );
}
