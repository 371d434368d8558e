import { Alert, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, alertOf } from '../../../lib/api';
import { tokenFromHash, useSession, useUser } from '../../auth';
import { useAcceptInvitation } from '../api/users.api';

/**
 * Where an invitation link (../lib/invitation-link.ts) opens, signed in: the account sees who it is
 * signed in as and accepts, which makes it a member of the project the invitation names (contract §23);
 * then the project opens. Signed out, the sign-in shows at this address first (SessionGate), fragment
 * and all, and this screen follows. The token is read once and taken out of the address bar; if the
 * invitation is for another account, "Sign in with another account" puts it back before signing out,
 * so the link survives the switch.
 */
/**
 * The token once read, for the page's life: the screen can mount again after the fragment is gone (the
 * session settling just after a sign-in remounts it), and reading the address bar alone then said "This
 * link is incomplete" to an invitee who had opened the whole link (a browser test met it under load).
 */
let heldToken: string | null = null;

export function AcceptInvitationRoute() {
  const me = useUser();
  const { signOut } = useSession();
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const [token] = useState(() => {
    const found = tokenFromHash(window.location.hash);
    if (found) {
      heldToken = found;
      window.history.replaceState(null, '', window.location.pathname);
    }
    return found ?? heldToken;
  });
  const message = alertOf(accept.error);
  const otherAccount = accept.error instanceof ApiError && accept.error.status === 403;

  const onAccept = () =>
    token &&
    accept.mutate(token, {
      onSuccess: (joined) => {
        heldToken = null; // used: a later visit of this address without a link must not reuse it
        notifications.show({
          message: `You joined the project as ${joined.role === 'admin' ? 'an admin' : 'an editor'}`,
        });
        navigate(`/p/${joined.projectId}/pages`, { replace: true });
      },
    });
  const switchAccount = async () => {
    if (token)
      window.history.replaceState(null, '', `${window.location.pathname}#token=${encodeURIComponent(token)}`);
    await signOut();
  };

  return (
    <Container size={480} py="xl">
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="accept-title">
        <Title order={1} size="h2" mb="sm" id="accept-title">
          Accept the invitation
        </Title>
        {!token ? (
          <Alert color="red" role="alert" title="This link is incomplete">
            Open the whole link you were given (it ends with a long token), or ask an admin of the project for
            a new one.
          </Alert>
        ) : (
          <Stack>
            <Text size="sm">
              You are signed in as <strong>{me.email}</strong>. Accepting makes this account a member of the
              project that invited it, with the role the admin chose. The link works once.
            </Text>
            {message && (
              <Alert color="red" role="alert" title="Not accepted">
                {message}
              </Alert>
            )}
            <Group>
              <Button onClick={onAccept} loading={accept.isPending} disabled={accept.isSuccess}>
                Accept invitation
              </Button>
              {otherAccount && (
                <Button variant="default" onClick={switchAccount}>
                  Sign in with another account
                </Button>
              )}
            </Group>
          </Stack>
        )}
      </Paper>
    </Container>
  );
}
