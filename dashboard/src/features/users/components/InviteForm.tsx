import { Button, Group, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ShownOnce } from '../../../components/ShownOnce';
import { formatTime } from '../../../lib/format';
import { setPasswordLink } from '../../auth';
import type { Role } from '../api/users.api';
import { useMemberWrites } from '../api/users.api';
import { invitationLink } from '../lib/invitation-link';

/** A link to hand over, shown once: a set-password link (a new account) or an invitation (an existing one). */
interface HandOver {
  kind: 'set-password' | 'invitation';
  email: string;
  url: string;
  expiresAt: string;
}

/**
 * Invite: an email and a role. A new account gets a set-password link (contract §15) that the admin
 * hands over (Folio sends no email), shown once; the invitee chooses their own password with it, so no
 * admin ever types or learns it. An email that already has a Folio account is only invited (contract
 * §23): it shows in the list as pending, with no access, until that account opens the invitation link
 * (shown once, here) while signed in and accepts it.
 */
export function InviteForm({ projectId }: { projectId: string }) {
  const { invite } = useMemberWrites(projectId);
  const [link, setLink] = useState<HandOver | null>(null);
  const form = useForm({
    initialValues: { email: '', name: '', role: 'editor' as Role },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter an email address'),
    },
  });
  const submit = form.onSubmit((values) =>
    invite.mutate(
      {
        email: values.email.trim(),
        role: values.role,
        ...(values.name.trim() ? { name: values.name.trim() } : {}),
      },
      {
        onSuccess: (user) => {
          const role = user.role === 'admin' ? 'an admin' : 'an editor';
          notifications.show({
            message:
              user.status === 'invited'
                ? `${user.email} is invited as ${role}: hand them the invitation link`
                : `${user.email} is now ${role}`,
          });
          setLink(
            user.invitationToken && user.invitationExpiresAt
              ? {
                  kind: 'invitation',
                  email: user.email,
                  url: invitationLink(user.invitationToken),
                  expiresAt: user.invitationExpiresAt,
                }
              : user.setPasswordToken && user.setPasswordExpiresAt
                ? {
                    kind: 'set-password',
                    email: user.email,
                    url: setPasswordLink(user.setPasswordToken),
                    expiresAt: user.setPasswordExpiresAt,
                  }
                : null,
          );
          form.reset();
        },
      },
    ),
  );
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="invite-title">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3" id="invite-title">
            Invite someone
          </Title>
          <ErrorAlert error={invite.error} title="Not invited" />
          <Group grow align="start">
            <TextInput
              label="Email"
              type="email"
              required
              autoComplete="off"
              {...form.getInputProps('email')}
            />
            <TextInput label="Name (optional)" autoComplete="off" {...form.getInputProps('name')} />
          </Group>
          <Radio.Group label="Role" {...form.getInputProps('role')}>
            <Group mt={6}>
              <Radio value="editor" label="Editor: edits and publishes content and media" />
              <Radio value="admin" label="Admin: also users, keys, webhooks and settings" />
            </Group>
          </Radio.Group>
          <Group justify="flex-end">
            <Button type="submit" loading={invite.isPending}>
              Invite
            </Button>
          </Group>
          {link?.kind === 'set-password' && (
            <ShownOnce
              label={`Set-password link for ${link.email}`}
              value={link.url}
              note={`Hand this link to ${link.email} yourself (Folio sends no email): with it they choose their password and are signed in. It works once, until ${formatTime(link.expiresAt)}, and is shown only once.`}
              onDone={() => setLink(null)}
            />
          )}
          {link?.kind === 'invitation' && (
            <ShownOnce
              label={`Invitation link for ${link.email}`}
              value={link.url}
              note={`${link.email} already has a Folio account, so they are invited, not added: they have no access until they open this link signed in with that account and accept. Hand it to them yourself (Folio sends no email). It works once, until ${formatTime(link.expiresAt)}, and is shown only once.`}
              onDone={() => setLink(null)}
            />
          )}
          <Text size="xs" c="dimmed">
            A new member gets a link to choose their own password. An email that already has a Folio account
            gets an invitation link instead, which that account accepts; until then it is listed as invited.
            Every member signs in at this address.
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
