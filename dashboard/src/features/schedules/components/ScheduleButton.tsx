import { Button, type ButtonProps } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import type { ScheduleTarget } from './ScheduleDialog';

// Loaded when first opened: the editor's first load does not carry the dialog.
const ScheduleDialog = lazy(() => import('./ScheduleDialog'));

/** A button that opens the schedule dialog for an entry or a page. */
export function ScheduleButton({
  site,
  target,
  children = 'Schedule',
  ...button
}: {
  site: { projectId: string; apiKey: string };
  target: ScheduleTarget;
  children?: string;
} & ButtonProps) {
  const [opened, setOpened] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <Button
        variant="default"
        {...button}
        onClick={() => {
          setLoaded(true);
          setOpened(true);
        }}
      >
        {children}
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <ScheduleDialog site={site} target={target} opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
