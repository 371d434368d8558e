import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';

/**
 * A secret the API returns once (an API key, a webhook's signing secret): shown in a read-only field
 * with a Copy button, and a plain warning that it cannot be shown again.
 */
export function ShownOnce({
  label,
  value,
  onDone,
  note = 'It is shown only once: Folio keeps no readable copy.',
}: {
  label: string;
  value: string;
  onDone?: () => void;
  note?: string;
}) {
  return (
    <Alert color="yellow" title="Copy it now" role="status">
      <Stack gap="xs">
        <Text size="sm">{note}</Text>
        <Group align="end" wrap="nowrap">
          <TextInput
            label={label}
            value={value}
            readOnly
            classNames={{ input: 'folio-mono' }}
            flex={1}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button
                variant={copied ? 'light' : 'filled'}
                color={copied ? 'green' : undefined}
                onClick={copy}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
        {onDone && (
          <Group justify="flex-end">
            <Button variant="default" size="xs" onClick={onDone}>
              I have copied it
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
