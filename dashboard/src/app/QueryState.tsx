import { Alert, Button, Group, Loader } from '@mantine/core';
import { messageOf } from '../lib/api';

/** What a screen shows until its data is there: a loader, or the error with "Try again". */
/** What QueryState reads of a query (a plain or an infinite one). */
interface QueryLike {
  isError: boolean;
  error: unknown;
  refetch(): unknown;
}

export function QueryState({ query, what }: { query: QueryLike; what: string }) {
  if (query.isError) {
    return (
      <Alert color="red" role="alert" title={`Could not load ${what}`}>
        <Group justify="space-between">
          {messageOf(query.error)}
          <Button size="xs" variant="white" onClick={() => query.refetch()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }
  return <Loader aria-label={`Loading ${what}`} role="status" />;
}
