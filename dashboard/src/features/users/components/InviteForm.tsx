import { Button, Group, Paper, PasswordInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ErrorAlert } from '../../../components/ErrorAlert';
import type { Role } from '../api/users.api';
import { useMemberWrites } from '../api/users.api';

/**
 * Invite: an email, a role and a first password, which the admin passes on (Folio sends no email).
 * An email that already has a Folio account is added with its own password, which is left alone.
 */
export function InviteForm({ projectId }: { projectId: string }) {
  const { invite } = useMemberWrites(projectId);
  const form = useForm({
    initialValues: { email: '', name: '', role: 'editor' as Role, password: '' },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter an email address'),
      password: (v) => (v.length >= 8 && v.length <= 256 ? null : 'At least 8 characters'),
    },
  });
  const submit = form.onSubmit((values) =>
    invite.mutate(
      {
        email: values.email.trim(),
        role: values.role,
        password: values.password,
        ...(values.name.trim() ? { name: values.name.trim() } : {}),
      },
      {
        onSuccess: (user) => {
          notifications.show({
            message: `${user.email} is now ${user.role === 'admin' ? 'an admin' : 'an editor'}`,
          });
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
          <PasswordInput
            label="First password"
            description="Pass it on yourself: Folio sends no email. An email that already has an account keeps its own password."
            required
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={invite.isPending}>
              Invite
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            Every member signs in at this address with their email and password.
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}
