import { Alert } from '@mantine/core';
import { alertOf } from '../lib/api';

/** A failed write's message in role `alert` (nothing for no error, or for a 401: the sign-in shows). */
export function ErrorAlert({ error, title }: { error: unknown; title: string }) {
  const message = alertOf(error);
  if (!message) return null;
  return (
    <Alert color="red" role="alert" title={title}>
      {message}
    </Alert>
  );
}
