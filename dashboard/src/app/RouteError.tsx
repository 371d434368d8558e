import { Alert, Anchor, Button, Code, Group, Stack, Title } from '@mantine/core';
import { Link, useParams, useRouteError } from 'react-router';

/**
 * A route's error boundary (React Router's `errorElement`): a screen that fails to render shows what
 * went wrong and a way back, inside the shell, never a blank page. The rest of the app keeps working.
 */
export function RouteError() {
  const error = useRouteError();
  const { projectId } = useParams();
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Stack>
      <Title order={1}>This screen could not be shown</Title>
      <Alert color="red" role="alert" title="Something went wrong">
        <Code>{message}</Code>
      </Alert>
      <Group>
        <Button variant="default" onClick={() => window.location.reload()}>
          Reload
        </Button>
        <Anchor component={Link} to={projectId ? `/p/${projectId}/pages` : '/'}>
          {projectId ? 'Back to the pages' : 'Back to your projects'}
        </Anchor>
      </Group>
    </Stack>
  );
}
