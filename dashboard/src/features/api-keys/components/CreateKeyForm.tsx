import { Button, Checkbox, Group, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ShownOnce } from '../../../components/ShownOnce';
import { useApiKeyWrites } from '../api/api-keys.api';

type Sites = 'one' | 'chosen' | 'all';

/**
 * A new secret key: its name, what it may do and which sites it reaches. "One site" is the project
 * open now; "A chosen set" lists the sites this account administers; "Every site I administer" follows
 * the account (scope `all`: a site administered later is covered too). The key is shown once.
 */
export function CreateKeyForm({
  projectId,
  adminOf,
}: {
  projectId: string;
  adminOf: { id: string; name: string }[];
}) {
  const { create } = useApiKeyWrites();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const form = useForm({
    initialValues: { name: '', access: 'write', sites: 'one' as Sites, chosen: [projectId] },
    validate: {
      name: (v) => (v.trim() ? null : 'Name the key after what uses it'),
      chosen: (v, values) =>
        values.sites === 'chosen' && v.length === 0 ? 'Choose at least one site' : null,
    },
  });
  const submit = form.onSubmit((values) =>
    create.mutate(
      {
        name: values.name.trim(),
        access: values.access === 'read' ? 'read' : 'write',
        ...(values.sites === 'all'
          ? { scope: 'all' as const }
          : { scope: 'selected' as const, projectIds: values.sites === 'one' ? [projectId] : values.chosen }),
      },
      {
        onSuccess: (key) => {
          setCreated({ name: key.name, key: key.key });
          form.reset();
        },
      },
    ),
  );
  const here = adminOf.find((p) => p.id === projectId)?.name ?? 'this site';

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="create-key-title">
      <Stack>
        <Title order={2} size="h3" id="create-key-title">
          Create a key
        </Title>
        {created && (
          <ShownOnce
            label={`Secret key “${created.name}”`}
            value={created.key}
            onDone={() => setCreated(null)}
          />
        )}
        <form onSubmit={submit} noValidate>
          <Stack>
            <ErrorAlert error={create.error} title="Key not created" />
            <TextInput
              label="Name"
              description="What uses it, e.g. “Catalogue import”"
              required
              {...form.getInputProps('name')}
            />
            <Radio.Group label="Access" {...form.getInputProps('access')}>
              <Stack gap={6} mt={6}>
                <Radio
                  value="write"
                  label="Read & write"
                  description="Reads published content and saves objects (POST /v1/objects/save)"
                />
                <Radio value="read" label="Read only" description="Reads published content and objects" />
              </Stack>
            </Radio.Group>
            <Radio.Group label="Sites" {...form.getInputProps('sites')}>
              <Stack gap={6} mt={6}>
                <Radio value="one" label="One site" description={`${here}, the site open now`} />
                <Radio value="chosen" label="A chosen set" description="Some of the sites you administer" />
                <Radio
                  value="all"
                  label="Every site I administer"
                  description="Now and later: a site you become admin of is covered too"
                />
              </Stack>
            </Radio.Group>
            {form.values.sites === 'chosen' && (
              <Checkbox.Group label="Chosen sites" {...form.getInputProps('chosen')}>
                <Stack gap={6} mt={6}>
                  {adminOf.map((p) => (
                    <Checkbox key={p.id} value={p.id} label={p.name} />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={create.isPending}>
                Create key
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              A key acts for your account: it reaches a site only while you administer it. Use it from servers
              only, as <code>Authorization: Bearer cms_sk_…</code>.
            </Text>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
