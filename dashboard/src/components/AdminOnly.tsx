import { Alert, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useRole } from '../features/projects';

/**
 * A screen only admins may use (the API answers 403 to editors): editors see its title and one sentence
 * saying why it is empty and whom to ask, rather than an error.
 */
export function AdminOnly({
  projectId,
  title,
  why,
  children,
}: {
  projectId: string;
  title: string;
  why: string;
  children: ReactNode;
}) {
  const role = useRole(projectId);
  if (role === 'admin' || role === undefined) return children;
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Alert color="gray" title="Admins only">
        {why} You are an editor of this project: ask one of its admins if you need a change here.
      </Alert>
    </Stack>
  );
}
