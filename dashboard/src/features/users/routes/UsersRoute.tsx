import { Alert, Badge, Button, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ShownOnce } from '../../../components/ShownOnce';
import { alertOf } from '../../../lib/api';
import { formatTime } from '../../../lib/format';
import { setPasswordLink, useUser } from '../../auth';
import { useRole } from '../../projects';
import { type Member, type Role, useMembers, useMemberWrites } from '../api/users.api';
import { InviteForm } from '../components/InviteForm';

/** What the Status column says: a member since when, or an invitation pending (or expired). */
function statusOf(m: Member): string {
  if (m.status === 'active') return `Member since ${formatTime(m.createdAt)}`;
  const until = m.invitationExpiresAt ?? m.createdAt;
  return Date.parse(until) > Date.now()
    ? `Invited: the link works until ${formatTime(until)}`
    : `Invitation expired ${formatTime(until)}: invite again for a new link`;
}

/**
 * The project's members and pending invitations. Admins invite, change roles, remove members and
 * cancel invitations; the API keeps at least one admin and answers 409 otherwise, which is shown as it
 * comes. An invitation (an existing account, contract §23) has no access until it is accepted: it has
 * no role to change nor password to reset here, only a Cancel. Editors see the list only.
 */
export function UsersRoute() {
  const projectId = useParams().projectId!;
  const me = useUser();
  const isAdmin = useRole(projectId) === 'admin';
  const members = useMembers(projectId);
  const { changeRole, remove, resetPassword } = useMemberWrites(projectId);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [canceling, setCanceling] = useState<Member | null>(null);
  const [resetting, setResetting] = useState<Member | null>(null);
  const [resetLink, setResetLink] = useState<{ email: string; url: string; expiresAt: string } | null>(null);

  const onRole = (member: Member, role: Role) =>
    changeRole.mutate(
      { id: member.id, role },
      {
        onSuccess: (u) =>
          notifications.show({
            message: `${u.email} is now ${u.role === 'admin' ? 'an admin' : 'an editor'}`,
          }),
      },
    );

  return (
    <Stack>
      <Title order={1}>Users</Title>
      {!isAdmin && (
        <Alert color="gray" title="Admins manage members">
          You are an editor of this project: you see who else works on it; its admins invite people, change
          roles and remove members.
        </Alert>
      )}
      {isAdmin && <InviteForm projectId={projectId} />}
      <ErrorAlert error={changeRole.error} title="Role not changed" />
      {resetLink && (
        <ShownOnce
          label={`Set-password link for ${resetLink.email}`}
          value={resetLink.url}
          note={`Hand this link to ${resetLink.email} yourself (Folio sends no email): with it they choose a new password, which signs them out everywhere. Their current password keeps working until then. It works once, until ${formatTime(resetLink.expiresAt)}, and is shown only once.`}
          onDone={() => setResetLink(null)}
        />
      )}
      {!members.data ? (
        <QueryState query={members} what="the members" />
      ) : (
        <Table striped aria-label="Members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Status</Table.Th>
              {isAdmin && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.data.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>
                  {m.email}{' '}
                  {m.id === me.id && (
                    <Badge size="sm" variant="outline" color="dark" tt="none">
                      you
                    </Badge>
                  )}
                  {m.status === 'invited' && (
                    <Badge size="sm" variant="light" color="orange" tt="none">
                      invited
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  {m.name || (
                    <Text span c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {isAdmin && m.status === 'active' ? (
                    <NativeSelect
                      aria-label={`Role of ${m.email}`}
                      data={[
                        { value: 'editor', label: 'Editor' },
                        { value: 'admin', label: 'Admin' },
                      ]}
                      value={m.role}
                      disabled={changeRole.isPending}
                      onChange={(e) => onRole(m, e.currentTarget.value as Role)}
                      w={120}
                    />
                  ) : m.role === 'admin' ? (
                    'Admin'
                  ) : (
                    'Editor'
                  )}
                </Table.Td>
                <Table.Td>{statusOf(m)}</Table.Td>
                {isAdmin && m.status === 'invited' && (
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      aria-label={`Cancel invitation of ${m.email}`}
                      onClick={() => setCanceling(m)}
                    >
                      Cancel invitation
                    </Button>
                  </Table.Td>
                )}
                {isAdmin && m.status === 'active' && (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {m.id !== me.id && (
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Reset password of ${m.email}`}
                          onClick={() => setResetting(m)}
                        >
                          Reset password
                        </Button>
                      )}
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        aria-label={`Remove ${m.email}`}
                        onClick={() => setRemoving(m)}
                      >
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmDialog
        opened={resetting !== null}
        title={`Reset the password of ${resetting?.email ?? ''}?`}
        confirmLabel="Make a link"
        danger={false}
        busy={resetPassword.isPending}
        error={alertOf(resetPassword.error)}
        onClose={() => {
          setResetting(null);
          resetPassword.reset();
        }}
        onConfirm={() =>
          resetting &&
          resetPassword.mutate(resetting.id, {
            onSuccess: (link) => {
              setResetLink({
                email: resetting.email,
                url: setPasswordLink(link.setPasswordToken),
                expiresAt: link.setPasswordExpiresAt,
              });
              setResetting(null);
            },
          })
        }
      >
        Folio makes a link with which they choose a new password; you hand it over. An earlier link stops
        working. Nothing changes until they use it.
      </ConfirmDialog>
      <ConfirmDialog
        opened={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove"
        busy={remove.isPending}
        error={alertOf(remove.error)}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              notifications.show({ message: `${removing.email} removed` });
              setRemoving(null);
            },
          })
        }
      >
        They lose access to this project at once. Their account, and their access to other projects, stay. A
        project always keeps at least one admin.
      </ConfirmDialog>
      <ConfirmDialog
        opened={canceling !== null}
        title={`Cancel the invitation of ${canceling?.email ?? ''}?`}
        confirmLabel="Cancel invitation"
        busy={remove.isPending}
        error={alertOf(remove.error)}
        onClose={() => {
          setCanceling(null);
          remove.reset();
        }}
        onConfirm={() =>
          canceling &&
          remove.mutate(canceling.id, {
            onSuccess: () => {
              notifications.show({ message: `The invitation of ${canceling.email} is canceled` });
              setCanceling(null);
            },
          })
        }
      >
        The link you handed over stops working at once; they never joined, so nothing else changes. You can
        invite them again later.
      </ConfirmDialog>
    </Stack>
  );
}
