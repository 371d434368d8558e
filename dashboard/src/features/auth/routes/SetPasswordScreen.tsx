import { Alert, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Logo } from '../../../app/Logo';
import { alertOf } from '../../../lib/api';
import { useSetPassword } from '../api/passwords.api';
import { NewPasswordFields, newPasswordRules } from '../components/NewPasswordFields';
import { tokenFromHash } from '../lib/set-password-link';

/**
 * Where a set-password link (an invitation or a reset, ../lib/set-password-link.ts) opens: the new
 * password twice, then `POST /v1/auth/set-password`, which answers as login does, so the account is
 * signed in and lands on its projects. Shown with or without a session in the tab.
 */
export function SetPasswordScreen() {
  const setPassword = useSetPassword();
  const navigate = useNavigate();
  // Read once, then taken out of the address bar (and of the tab's history entry).
  const [token] = useState(() => {
    const found = tokenFromHash(window.location.hash);
    if (found) window.history.replaceState(null, '', window.location.pathname);
    return found;
  });
  const form = useForm({
    initialValues: { password: '', again: '' },
    validate: {
      ...newPasswordRules,
    },
  });
  const submit = form.onSubmit(async ({ password }) => {
    if (!token) return;
    // Signed in by the mutation; its error shows below.
    if (await setPassword.mutateAsync({ token, password }).catch(() => null))
      navigate('/', { replace: true });
  });
  // A 401 here is the link's own answer (used, expired, unknown), not an ended session: alertOf shows it.
  const message = alertOf(setPassword.error);

  return (
    <Container size={420} py="xl" component="main">
      <Logo />
      <Paper withBorder p="lg" mt="md" radius="md">
        <Title order={1} size="h2" mb="sm">
          Choose your password
        </Title>
        {!token ? (
          <Alert color="red" role="alert" title="This link is incomplete">
            Open the whole link you were given (it ends with a long token), or ask an admin for a new one.
          </Alert>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <Text size="sm">
                Then you are signed in. The link works once; it stops working after 72 hours.
              </Text>
              {message && (
                <Alert color="red" role="alert" title="Password not set">
                  {message}
                </Alert>
              )}
              <NewPasswordFields form={form} />
              <Button type="submit" loading={setPassword.isPending}>
                Set password and sign in
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Container>
  );
}
