import { Button, Checkbox, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { detailsAt } from '../../../lib/details';
import type { WebhookBody } from '../api/webhooks.api';

type EventType = WebhookBody['events'][number];

/** URL, events from the catalog (or every event, "*") and a description: create and edit alike. */
export function WebhookForm({
  catalog,
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  catalog: { type: string; description: string }[];
  initial?: { url: string; events: string[]; description: string };
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit(body: WebhookBody): void;
  onCancel(): void;
}) {
  const form = useForm({
    initialValues: {
      url: initial?.url ?? '',
      all: initial?.events.includes('*') ?? false,
      events: initial?.events.filter((e) => e !== '*') ?? [],
      description: initial?.description ?? '',
    },
    validate: {
      url: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? null : 'Enter an http:// or https:// address'),
      events: (v, values) => (values.all || v.length > 0 ? null : 'Choose at least one event'),
    },
  });
  const refusedUrl = detailsAt(error, 'body').url;
  const [sentUrl, setSentUrl] = useState<string | null>(null);
  const submit = form.onSubmit((values) => {
    setSentUrl(values.url);
    onSubmit({
      url: values.url.trim(),
      // In the catalog's order, whatever order they were ticked in.
      events: (values.all
        ? ['*']
        : catalog.map((e) => e.type).filter((t) => values.events.includes(t))) as EventType[],
      description: values.description.trim(),
    });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <ErrorAlert error={error} title="Not saved" />
        <TextInput
          label="URL"
          description="Folio POSTs each event here, signed (Standard Webhooks)"
          placeholder="https://example.com/hooks/folio"
          required
          {...form.getInputProps('url')}
          // The API's reason at the field (a local address: why, and how to allow it), until it is edited.
          error={form.errors.url ?? (form.values.url === sentUrl ? refusedUrl : null)}
        />
        <Stack gap={6}>
          <Checkbox
            label="Every event, including ones added later"
            {...form.getInputProps('all', { type: 'checkbox' })}
          />
          <Checkbox.Group label="Events" {...form.getInputProps('events')}>
            <Stack gap={6} mt={6}>
              {catalog.map((e) => (
                <Checkbox
                  key={e.type}
                  value={e.type}
                  disabled={form.values.all}
                  label={
                    <Text span ff="monospace" size="sm">
                      {e.type}
                    </Text>
                  }
                  description={e.description}
                />
              ))}
            </Stack>
          </Checkbox.Group>
        </Stack>
        <Textarea
          label="Description"
          description="Optional: what listens here"
          autosize
          minRows={2}
          {...form.getInputProps('description')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
