import { Anchor, Container, Paper, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Logo } from '../../../app/Logo';
import { SignInForm } from '../components/SignInForm';

/**
 * Shown in place of the app whenever there is no session, at whatever address the editor is: after
 * signing in, that same screen comes back (with its unsaved drafts, kept in storage).
 */
export function SignInScreen({ expired }: { expired: boolean }) {
  return (
    <Container size={420} py="xl" component="main">
      <Logo />
      <Paper withBorder p="lg" mt="md" radius="md">
        <Title order={1} size="h2" mb="sm">
          Sign in
        </Title>
        {expired && (
          <Text role="status" mb="sm">
            Your session has ended. Sign in again: your unsaved changes are kept.
          </Text>
        )}
        <SignInForm />
      </Paper>
      <Text mt="md" size="sm">
        New to Folio?{' '}
        <Anchor component={Link} to="/projects/new">
          Create a project
        </Anchor>
      </Text>
    </Container>
  );
}
