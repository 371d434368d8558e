import {
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { detailsAt } from '../../../lib/details';
import { type Project, type ProjectChanges, useProjectWrites } from '../api/settings.api';

type HookType = Project['deployHooks'][number]['type'];

interface Row {
  /** Kept apart from `id` so React keeps a row's inputs while its id is typed. */
  key: number;
  id: string;
  type: HookType;
  url: string;
  /** Stored already: the id is fixed (the stored secret belongs to it). */
  stored: boolean;
  hasSecret: boolean;
  /** 'keep' the stored secret, 'clear' it, or send `value`. */
  secret: { mode: 'keep' | 'clear' | 'new'; value: string };
}

/** A label for each hook type the API accepts: keyed by the generated type, so none is missing or extra. */
const TYPE_LABELS: Record<HookType, string> = {
  generic: 'Generic (POST, signed when it has a secret)',
  github_repository_dispatch: 'GitHub repository dispatch',
};
const TYPES = Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }));

const fromProject = (project: Project): Row[] =>
  project.deployHooks.map((h, i) => ({
    key: i,
    id: h.id,
    type: h.type,
    url: h.url,
    stored: true,
    hasSecret: h.hasSecret,
    secret: { mode: h.hasSecret ? 'keep' : 'new', value: '' },
  }));

/**
 * Deploy hooks: called (debounced) after publishes so a static site rebuilds. A secret is write-only:
 * a stored one shows as "set" and is kept unless replaced or cleared. Saved as a whole list (PATCH).
 */
export function DeployHooks({ project }: { project: Project }) {
  const { update } = useProjectWrites(project.id);
  const [rows, setRows] = useState<Row[]>(() => fromProject(project));
  const [nextKey, setNextKey] = useState(project.deployHooks.length);
  const change = (key: number, patch: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const save = () => {
    const deployHooks: NonNullable<ProjectChanges['deployHooks']> = rows.map((r) => ({
      id: r.id.trim(),
      type: r.type,
      url: r.url.trim(),
      ...(r.secret.mode === 'clear'
        ? { secret: null }
        : r.secret.mode === 'new' && r.secret.value
          ? { secret: r.secret.value }
          : {}),
    }));
    update.mutate(
      { deployHooks },
      {
        onSuccess: (p) => {
          setRows(fromProject(p));
          setNextKey(p.deployHooks.length);
          notifications.show({ message: 'Deploy hooks saved' });
        },
      },
    );
  };

  // The API's reason for a refused URL (details at body.deployHooks[<index>].url), at that row's field
  // while it still holds the address that was sent.
  const refused = detailsAt(update.error, 'body.deployHooks');
  const sent = update.variables?.deployHooks;
  const urlError = (index: number, url: string) =>
    refused[String(index)] && sent?.[index]?.url === url.trim() ? refused[String(index)] : null;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="hooks-title">
      <Stack>
        <Title order={2} size="h3" id="hooks-title">
          Deploy hooks
        </Title>
        <Text size="sm">
          Called once after a burst of publishes (10 seconds after the last, by default) so your static site
          rebuilds: a generic hook receives a POST; a GitHub hook sends a repository dispatch with your token.
        </Text>
        <ErrorAlert error={update.error} title="Deploy hooks not saved" />
        {rows.length === 0 && <Text c="dimmed">No deploy hooks.</Text>}
        {rows.map((r, index) => (
          <Paper
            key={r.key}
            withBorder
            p="sm"
            bg="gray.0"
            component="fieldset"
            aria-label={`Deploy hook ${index + 1}`}
          >
            <Stack gap="xs">
              <Group grow align="start">
                <TextInput
                  label="Hook id"
                  description={r.stored ? 'Fixed once saved' : 'Letters, digits, _ . -'}
                  required
                  readOnly={r.stored}
                  value={r.id}
                  onChange={(e) => change(r.key, { id: e.currentTarget.value })}
                />
                <NativeSelect
                  label="Type"
                  data={TYPES}
                  value={r.type}
                  onChange={(e) => change(r.key, { type: e.currentTarget.value as HookType })}
                />
              </Group>
              <TextInput
                label="Hook URL"
                description={
                  r.type === 'github_repository_dispatch'
                    ? 'https://api.github.com/repos/OWNER/REPO/dispatches'
                    : 'Your host’s build hook address'
                }
                required
                value={r.url}
                error={urlError(index, r.url)}
                onChange={(e) => change(r.key, { url: e.currentTarget.value })}
              />
              {r.hasSecret && r.secret.mode !== 'new' ? (
                <Group gap="xs">
                  <Text size="sm" fw={500}>
                    Secret
                  </Text>
                  <Badge
                    color={r.secret.mode === 'clear' ? 'red' : 'green'}
                    variant="light"
                    c="dark"
                    tt="none"
                  >
                    {r.secret.mode === 'clear' ? 'will be cleared' : 'set'}
                  </Badge>
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => change(r.key, { secret: { mode: 'new', value: '' } })}
                  >
                    Replace secret
                  </Button>
                  {r.secret.mode === 'keep' && (
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={() => change(r.key, { secret: { mode: 'clear', value: '' } })}
                    >
                      Clear secret
                    </Button>
                  )}
                </Group>
              ) : (
                <PasswordInput
                  label="Secret"
                  description={
                    r.type === 'github_repository_dispatch'
                      ? 'Required: a GitHub token allowed to dispatch to the repository'
                      : 'Optional: a whsec_… secret to sign the call (Standard Webhooks)'
                  }
                  autoComplete="off"
                  value={r.secret.value}
                  onChange={(e) => change(r.key, { secret: { mode: 'new', value: e.currentTarget.value } })}
                />
              )}
              <Group justify="flex-end">
                <Button
                  size="xs"
                  color="red"
                  variant="subtle"
                  onClick={() => setRows((list) => list.filter((x) => x.key !== r.key))}
                >
                  Remove hook
                </Button>
              </Group>
            </Stack>
          </Paper>
        ))}
        <Group justify="space-between">
          <Button
            variant="default"
            onClick={() => {
              setRows((list) => [
                ...list,
                {
                  key: nextKey,
                  id: '',
                  type: 'generic',
                  url: '',
                  stored: false,
                  hasSecret: false,
                  secret: { mode: 'new', value: '' },
                },
              ]);
              setNextKey((k) => k + 1);
            }}
          >
            Add deploy hook
          </Button>
          <Button onClick={save} loading={update.isPending}>
            Save deploy hooks
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
