import { Alert, Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { alertOf } from '../../../lib/api';
import { type Project, useProjectWrites } from '../api/settings.api';

/** The publishable key (public by design: it ships in the site) and "Rotate key", confirmed first. */
export function PublishableKey({ project }: { project: Project }) {
  const { rotateKey } = useProjectWrites(project.id);
  const [confirm, setConfirm] = useState(false);
  const [rotated, setRotated] = useState(false);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="key-title">
      <Stack>
        <Title order={2} size="h3" id="key-title">
          Publishable key
        </Title>
        <Text size="sm">
          Your site sends it as <code>x-cms-key</code> to read published content and register its components.
          It is public by design; rotate it if it is being abused.
        </Text>
        {rotated && (
          <Alert color="green" role="status" title="New key in place">
            The old key no longer works. Put the new one below in your site's configuration and redeploy it.
          </Alert>
        )}
        <Group align="end" wrap="nowrap">
          <TextInput
            label="Publishable key"
            value={project.apiKey}
            readOnly
            flex={1}
            classNames={{ input: 'folio-mono' }}
          />
          <CopyButton value={project.apiKey}>
            {({ copied, copy }) => (
              <Button
                variant={copied ? 'light' : 'default'}
                color={copied ? 'green' : undefined}
                onClick={copy}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button color="red" variant="light" onClick={() => setConfirm(true)}>
            Rotate key
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirm}
        title="Rotate the publishable key?"
        confirmLabel="Rotate key"
        busy={rotateKey.isPending}
        error={alertOf(rotateKey.error)}
        onClose={() => {
          setConfirm(false);
          rotateKey.reset();
        }}
        onConfirm={() =>
          rotateKey.mutate(undefined, {
            onSuccess: () => {
              setConfirm(false);
              setRotated(true);
            },
          })
        }
      >
        The current key stops working at once: your site cannot read content or register components until it
        is deployed with the new key.
      </ConfirmDialog>
    </Paper>
  );
}
