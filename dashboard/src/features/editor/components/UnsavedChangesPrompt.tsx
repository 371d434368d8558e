import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * Leaving with unsaved changes asks first: moves inside the dashboard through the router's blocker
 * (a dialog), closing or reloading the tab through the browser's own beforeunload prompt.
 */
export function UnsavedChangesPrompt({ when, onLeave }: { when: boolean; onLeave(): void }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need returnValue set to show the prompt.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [when]);

  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title="Leave without saving?"
    >
      <Text size="sm" mb="md">
        You have changes that are not saved. If you leave, they are lost.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          Stay
        </Button>
        <Button
          color="red"
          onClick={() => {
            onLeave();
            blocker.proceed?.();
          }}
        >
          Leave
        </Button>
      </Group>
    </Modal>
  );
}
