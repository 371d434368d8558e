import { Alert, Anchor, Badge, Breadcrumbs, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { ApiError, messageOf } from '../../../lib/api';
import { formatTime } from '../../../lib/format';
import { useApi } from '../../auth';
import {
  type ChangedBy,
  ConflictAlert,
  currentVersionOf,
  entryKeys,
  entryWrites,
  isConflict,
  useHistory,
  usePageEntries,
  whoChanged,
} from '../../editor';
import { pageKeys, pagePath } from '../../pages';
import { useProject } from '../../projects';
import { FieldDiff } from '../components/FieldDiff';

/**
 * An entry's versions (every publish and unpublish, newest first) with who and when, each compared
 * field by field with the working copy; "Restore" makes a version the working copy (a draft: nothing
 * goes live until it is published).
 */
export function HistoryRoute() {
  const params = useParams();
  const projectId = params.projectId!;
  const pageId = params.pageId!;
  const entryId = params.entryId!;
  const api = useApi();
  const queryClient = useQueryClient();
  const project = useProject(projectId);
  const site = project.data ? { projectId, apiKey: project.data.apiKey } : undefined;
  const entries = usePageEntries(site, pageId);
  const history = useHistory(projectId, entryId);
  const entry = entries.data?.find((e) => e.id === entryId);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<(ChangedBy & { historyId: string }) | null>(null);

  const restore = async (historyId: string, version: number) => {
    if (!site) return;
    setBusy(historyId);
    setError(null);
    try {
      const saved = await entryWrites(api, site).restore(entryId, historyId, version);
      queryClient.setQueryData(entryKeys.entries(projectId, pageId), (list: (typeof saved)[] | undefined) =>
        list?.map((e) => (e.id === saved.id ? saved : e)),
      );
      void queryClient.invalidateQueries({ queryKey: pageKeys.list(projectId) });
      setConflict(null);
      notifications.show({ message: 'Restored into the working copy. Publish it to make it live.' });
    } catch (err) {
      if (isConflict(err)) {
        const by = await whoChanged(api, projectId, entryId).catch(() => ({ who: null, at: null }));
        setConflict({ historyId, ...by, currentVersion: currentVersionOf(err) });
      } else if (!(err instanceof ApiError && err.status === 401)) setError(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} to={`/p/${projectId}/pages`}>
          Pages
        </Anchor>
        <Anchor component={Link} to={pagePath(projectId, pageId)} ff="monospace">
          {pageId}
        </Anchor>
        <Text>History</Text>
      </Breadcrumbs>
      <Title order={1}>History of {entry ? entry.instanceKey : 'the entry'}</Title>
      {error && (
        <Alert color="red" role="alert" title="Not restored">
          {error}
        </Alert>
      )}
      {conflict && entry && (
        <ConflictAlert
          changedBy={conflict}
          busy={busy !== null}
          onReload={() => {
            setConflict(null);
            void queryClient.invalidateQueries({ queryKey: entryKeys.entries(projectId, pageId) });
          }}
          onOverwrite={() => void restore(conflict.historyId, conflict.currentVersion ?? entry.version)}
        />
      )}
      {!entries.data || !history.data ? (
        <QueryState query={entries.isError ? entries : history} what="the history" />
      ) : !entry ? (
        <Alert color="red" role="alert" title="Entry not found">
          This entry is not on the page any more.
        </Alert>
      ) : history.data.length === 0 ? (
        <Text>
          Never published yet: versions appear here each time the entry is published or unpublished.
        </Text>
      ) : (
        history.data.map((item) => (
          <Paper
            key={item.id}
            withBorder
            p="md"
            radius="md"
            component="section"
            aria-label={`Version of ${formatTime(item.at)}`}
          >
            <Stack gap="sm">
              <Group justify="space-between">
                <Group gap="xs">
                  <Badge color={item.action === 'publish' ? 'green' : 'gray'} variant="light" c="dark">
                    {item.action === 'publish' ? 'Published' : 'Unpublished'}
                  </Badge>
                  <Text size="sm">
                    by <strong>{item.actor.email}</strong> on {formatTime(item.at)}
                  </Text>
                </Group>
                <Button
                  size="xs"
                  variant="default"
                  loading={busy === item.id}
                  disabled={busy !== null}
                  onClick={() => void restore(item.id, entry.version)}
                >
                  Restore
                </Button>
              </Group>
              <FieldDiff version={item.fields} working={entry.fields} />
            </Stack>
          </Paper>
        ))
      )}
    </Stack>
  );
}
