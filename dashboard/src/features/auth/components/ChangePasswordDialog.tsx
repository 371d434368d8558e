import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiError, alertOf } from '../../../lib/api';
import { useChangePassword } from '../api/passwords.api';
import { NewPasswordFields, newPasswordRules } from './NewPasswordFields';

/**
 * "Change password" for every account (`POST /v1/auth/password`, contract §15): the current password and
 * the new one twice. A wrong current password is the API's 401 `invalid_credentials`, shown at that
 * field (this session stays: only a call made with an ended session brings the sign-in back). Success
 * ends the account's other sessions, which the notification says.
 */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const changePassword = useChangePassword();
  const form = useForm({
    initialValues: { current: '', password: '', again: '' },
    validate: {
      current: (v) => (v.length > 0 ? null : 'Enter your current password'),
      ...newPasswordRules,
    },
  });
  const close = () => {
    form.reset();
    changePassword.reset();
    onClose();
  };
  const submit = form.onSubmit(({ current, password }) =>
    changePassword.mutate(
      { currentPassword: current, newPassword: password },
      {
        onSuccess: () => {
          notifications.show({ message: 'Password changed. Your other sessions were signed out.' });
          close();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'invalid_credentials') {
            form.setFieldError('current', 'This is not your current password.');
          }
        },
      },
    ),
  );
  // A wrong current password is said at its field, not in the alert.
  const error = changePassword.error;
  const message = error instanceof ApiError && error.code === 'invalid_credentials' ? null : alertOf(error);
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
            <Button type="submit" loading={changePassword.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
