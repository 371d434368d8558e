import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * "Are you sure?" for a change that cannot be undone: a dialog named by its question, Cancel first,
 * the action last; an error from the action is shown inside it (role alert) so the editor can retry.
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  busy = false,
  error = null,
  danger = true,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  danger?: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        <Text size="sm" component="div">
          {children}
        </Text>
        {error && (
          <Alert color="red" role="alert" title="It did not work">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
