import {
  Alert,
  Anchor,
  Button,
  Container,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Logo } from '../../../app/Logo';
import { messageOf } from '../../../lib/api';
import { useSession } from '../../auth';
import { useCreateProject } from '../api/projects.api';

/**
 * First run (no session, no project) and "another project" for a signed-in account: the same form and
 * the same POST /v1/projects. Signed out, the new admin account is signed in right after; signed in,
 * the account's own email is filled in and its password confirms it.
 */
export function CreateProjectRoute() {
  const { state, signIn, refreshUser } = useSession();
  const signedIn = state.status === 'signedIn';
  const create = useCreateProject();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', email: signedIn ? state.user.email : '', password: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Name the project'),
      email: (v) => (/^\S+@\S+$/.test(v) ? null : 'Enter an email address'),
      password: (v) => (v.length >= 8 ? null : 'At least 8 characters'),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      const created = await create.mutateAsync({
        ...values,
        name: values.name.trim(),
        email: values.email.trim(),
      });
      if (signedIn) await refreshUser();
      else await signIn(values.email.trim(), values.password);
      navigate(`/p/${created.project.id}/pages`);
    } catch (err) {
      setError(messageOf(err));
    }
  });

  const body = (
    <Paper withBorder p="lg" mt="md" radius="md">
      <Title order={1} size="h2" mb="xs">
        Create a project
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        A project is one site: its content, media and people.{' '}
        {signedIn ? 'Confirm with your password.' : 'You become its admin.'}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          {error && (
            <Alert color="red" role="alert" title="Could not create the project">
              {error}
            </Alert>
          )}
          <TextInput label="Project name" required {...form.getInputProps('name')} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            readOnly={signedIn}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete={signedIn ? 'current-password' : 'new-password'}
            required
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={create.isPending}>
            Create project
          </Button>
        </Stack>
      </form>
    </Paper>
  );

  if (signedIn) return <Container size={480}>{body}</Container>;
  return (
    <Container size={420} py="xl" component="main">
      <Logo />
      {body}
      <Text mt="md" size="sm">
        Already have an account?{' '}
        <Anchor component={Link} to="/">
          Sign in
        </Anchor>
      </Text>
    </Container>
  );
}
