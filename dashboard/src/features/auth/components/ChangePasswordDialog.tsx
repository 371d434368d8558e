import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ApiError, alertOf, unwrap } from '../../../lib/api';
import { useApi } from '../api/session';
import { NewPasswordFields, newPasswordRules } from './NewPasswordFields';

/**
 * "Change password" for every account (`POST /v1/auth/password`, contract §15): the current password and
 * the new one twice. A wrong current password is the API's 401 `invalid_credentials`, shown at that
 * field (this session stays: only a call made with an ended session brings the sign-in back). Success
 * ends the account's other sessions, which the notification says.
 */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const api = useApi();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { current: '', password: '', again: '' },
    validate: {
      current: (v) => (v.length > 0 ? null : 'Enter your current password'),
      ...newPasswordRules,
    },
  });
  const close = () => {
    form.reset();
    setError(null);
    onClose();
  };
  const submit = form.onSubmit(async ({ current, password }) => {
    setBusy(true);
    setError(null);
    try {
      unwrap(
        await api.POST('/v1/auth/password', { body: { currentPassword: current, newPassword: password } }),
      );
      notifications.show({ message: 'Password changed. Your other sessions were signed out.' });
      close();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_credentials') {
        form.setFieldError('current', 'This is not your current password.');
      } else setError(err);
    } finally {
      setBusy(false);
    }
  });
  const message = alertOf(error);
  return (
    <Modal opened={opened} onClose={close} title="Change password">
      <form onSubmit={submit} noValidate>
        <Stack>
          {message && (
            <Alert color="red" role="alert" title="Password not changed">
              {message}
            </Alert>
          )}
          <PasswordInput
            label="Current password"
            required
            autoComplete="current-password"
            {...form.getInputProps('current')}
          />
          <NewPasswordFields form={form} />
          <Text size="xs" c="dimmed">
            Your other sessions (other browsers, other computers) are signed out; this one stays.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
