import { Alert, Button, Code, Group } from '@mantine/core';
import { Component, type ReactNode } from 'react';

interface Props {
  /** What failed, in the alert's title ("Headline could not be shown"). */
  title: string;
  /** What still works, in a sentence ("The other fields and entries can still be edited."). */
  rest: string;
  children: ReactNode;
  /** An action that gets past the failure (clear the field's value), offered beside Try again. */
  recover?: { label: string; run(): void };
}

interface State {
  error: Error | null;
}

/**
 * An error boundary around one part of a screen (a field's control, an entry's form): a part that
 * throws while rendering shows what went wrong in its own place, and the rest of the screen keeps
 * working. The routes' boundaries (app/RouteError.tsx) replace the whole screen, so one stored value
 * no control could show used to blank the page editor (issue 42 item 8). A class: React has no hook
 * for catching render errors.
 */
export class PartBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const { title, rest, recover } = this.props;
    return (
      <Alert color="red" role="alert" title={title}>
        {rest} <Code>{error.message}</Code>
        <Group mt="xs">
          {recover && (
            <Button
              size="compact-sm"
              color="red"
              variant="light"
              onClick={() => {
                recover.run();
                this.setState({ error: null });
              }}
            >
              {recover.label}
            </Button>
          )}
          <Button size="compact-sm" variant="default" onClick={() => this.setState({ error: null })}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }
}
