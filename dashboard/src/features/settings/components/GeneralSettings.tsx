import { Button, Group, Paper, Radio, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { type Project, useProjectWrites } from '../api/settings.api';

const PREVIEW_HELP =
  "Your site's address for a page, with {pageId} where the page's id goes: https://example.com{pageId} shows /about at https://example.com/about. A site in several languages adds {locale} where its address names the language (https://example.com/{locale}{pageId}): the preview then shows the language you edit. The page screen then shows your site beside its forms: click a component to edit it and see your typing in the page before you save. A site built with Folio's SDK (@folio/sdk or @folio/react, from the release that brought visual editing) connects by itself, with nothing else to add, once it lets this dashboard frame it; it is given a read-only preview token only when it is framed by this dashboard from this address's origin. Empty: no preview.";

const DOMAIN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/;

/** Name, domains, CDN URL, preview URL, baking and who may change definitions: one form, one PATCH. */
export function GeneralSettings({ project }: { project: Project }) {
  const { update } = useProjectWrites(project.id);
  const form = useForm({
    initialValues: {
      name: project.name,
      domains: project.domains,
      cdnUrl: project.cdnUrl ?? '',
      previewUrl: project.previewUrl ?? '',
      bakeEnabled: project.bakeEnabled,
      definitionSync: project.definitionSync,
    },
    validate: {
      name: (v) => (v.trim() ? null : 'Name the project'),
      domains: (v) => {
        const bad = v.filter((d) => !DOMAIN.test(d.toLowerCase()));
        return bad.length ? `Not a host name: ${bad.join(', ')} (e.g. example.com or localhost:5173)` : null;
      },
      cdnUrl: (v) =>
        v.trim() === '' || /^https?:\/\/\S+$/.test(v.trim()) ? null : 'An http(s) address, or empty',
      // The server checks the rest (credentials, an origin the page id could move) and says why.
      previewUrl: (v) =>
        v.trim() === '' || (/^https?:\/\/\S+$/.test(v.trim()) && v.includes('{pageId}'))
          ? null
          : 'An http(s) address with {pageId} where the page goes, or empty',
    },
  });
  const submit = form.onSubmit((values) =>
    update.mutate(
      {
        name: values.name.trim(),
        domains: values.domains.map((d) => d.toLowerCase()),
        cdnUrl: values.cdnUrl.trim() || null,
        previewUrl: values.previewUrl.trim() || null,
        bakeEnabled: values.bakeEnabled,
        definitionSync: values.definitionSync,
      },
      {
        onSuccess: (p) => {
          notifications.show({ message: 'Settings saved' });
          form.resetDirty({
            name: p.name,
            domains: p.domains,
            cdnUrl: p.cdnUrl ?? '',
            previewUrl: p.previewUrl ?? '',
            bakeEnabled: p.bakeEnabled,
            definitionSync: p.definitionSync,
          });
        },
      },
    ),
  );
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="general-title">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2} size="h3" id="general-title">
            Project
          </Title>
          <ErrorAlert error={update.error} title="Settings not saved" />
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TagsInput
            label="Domains"
            description="Sites on these hosts may read content from a browser (CORS), e.g. example.com or localhost:5173; none listed: any site may. Press Enter after each."
            clearable
            {...form.getInputProps('domains')}
          />
          <TextInput
            label="CDN URL"
            description="Media URLs start with it when set (a CDN in front of /media); empty: Folio's own address"
            placeholder="https://cdn.example.com"
            {...form.getInputProps('cdnUrl')}
          />
          <TextInput
            label="Preview URL"
            description={PREVIEW_HELP}
            placeholder="https://example.com{pageId}"
            classNames={{ input: 'folio-mono' }}
            {...form.getInputProps('previewUrl')}
          />
          <Switch
            label="Baking"
            description="On: your site's build copies published content into its pages from the snapshot. Off is the kill switch: builds stop baking and read content live from Folio, e.g. while a bad publish is fixed."
            {...form.getInputProps('bakeEnabled', { type: 'checkbox' })}
          />
          <Radio.Group
            label="Definition sync"
            description="What your site's code may change in the page definitions with the publishable key, which every visitor's browser has"
            {...form.getInputProps('definitionSync')}
          >
            <Stack gap={6} mt={6}>
              <Radio
                value="additive"
                label="Additive"
                description="New components and new fields are added; a field's type is never changed and nothing is removed (the safe default)"
              />
              <Radio
                value="locked"
                label="Locked"
                description="Nothing changes: syncs with the publishable key are refused; push schema changes with a session or a write API key"
              />
              <Radio
                value="open"
                label="Open"
                description="Anything may change, removals and type changes included: for development only"
              />
            </Stack>
          </Radio.Group>
          <Group justify="flex-end">
            <Text size="sm" c="dimmed">
              {form.isDirty() ? 'Unsaved changes' : ''}
            </Text>
            <Button type="submit" loading={update.isPending}>
              Save settings
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
