import type { Schemas } from '@folio/client';
import { Alert, Anchor, Badge, Breadcrumbs, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { alertOf } from '../../../lib/api';
import { formatTimeExact } from '../../../lib/format';
import { useApi } from '../../auth';
import {
  type ChangedBy,
  ConflictAlert,
  currentVersionOf,
  type Decl,
  entryKeys,
  isConflict,
  pageEntriesQuery,
  referenceIds,
  sameValue,
  useChosenEntries,
  useDefinitions,
  useHistory,
  usePageEntries,
  whoChanged,
} from '../../editor';
import { pagePath } from '../../pages';
import { useProject } from '../../projects';
import { useRestoreVersion } from '../api/restore.api';
import { FieldDiff } from '../components/FieldDiff';
import { ReferencedEntries } from '../components/ReadableValue';

/** How many referenced entries the screen names (one read: GET /v1/entries takes 100 ids). */
const NAMED_REFERENCES = 100;

const ACTIONS = {
  publish: { label: 'Published', color: 'green' },
  unpublish: { label: 'Unpublished', color: 'gray' },
  saved: { label: 'Draft kept by a restore', color: 'blue' },
} as const satisfies Record<Schemas['HistoryItem']['action'], { label: string; color: string }>;

/**
 * An entry's versions (every publish and unpublish, and each draft a restore replaced, newest first)
 * with who and when (to the second), each compared field by field with the working copy; "Restore"
 * asks first, then makes a version the working copy (a draft: nothing goes live until it is
 * published). The working copy it replaces is never lost: the server keeps it in history ("saved",
 * contract §15) when no record holds it, and Undo restores that record.
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
  const locales = project.data?.locales ?? null;
  const history = useHistory(projectId, entryId);
  // In a project with locales each record belongs to one (null: made before it had them, the default's):
  // it is compared with the working copy in that locale, and a restore writes into it (If-Match: its version).
  const localeOf = (item: { locale: string | null }) =>
    locales ? (item.locale ?? locales.default) : undefined;
  const recordLocales = locales
    ? [locales.default, ...new Set((history.data ?? []).map((i) => i.locale ?? locales.default))].filter(
        (c, i, all) => all.indexOf(c) === i,
      )
    : [];
  const entries = usePageEntries(site, pageId, locales?.default, project.data !== undefined);
  const inLocales = useQueries({
    queries: recordLocales.map((code) => pageEntriesQuery(api, site, pageId, code)),
  });
  const entryIn = (code: string | undefined) =>
    (code === undefined ? entries.data : inLocales[recordLocales.indexOf(code)]?.data)?.find(
      (e) => e.id === entryId,
    );
  const restoreVersion = useRestoreVersion(site, entryId);
  const entry = entries.data?.find((e) => e.id === entryId);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<(ChangedBy & { historyId: string }) | null>(null);
  const [asking, setAsking] = useState<{ id: string; at: string } | null>(null);
  /** The working copy before the last restore: what Undo brings back. */
  const [undo, setUndo] = useState<{ fields: Record<string, unknown>; at: string } | null>(null);
  const definitions = useDefinitions(projectId, pageId);
  const definition = definitions.data?.find((d) => d.instanceKey === entry?.instanceKey);
  const decls: Record<string, Decl> = {};
  for (const field of (definition?.fields ?? []) as Decl[]) decls[field.key] = field;
  // The entries the versions and working copies refer to, named by title, component and page.
  const ids = new Set<string>();
  for (const fields of [
    ...(history.data ?? []).map((i) => i.fields),
    ...recordLocales.map((code) => entryIn(code)?.fields ?? {}),
    entry?.fields ?? {},
  ])
    for (const [key, decl] of Object.entries(decls)) referenceIds(fields[key], decl, ids);
  const referenced = useChosenEntries(projectId, [...ids].slice(0, NAMED_REFERENCES));
  const names = new Map((referenced.data ?? []).map((e) => [e.id, e]));

  const restore = async (historyId: string, version: number, then?: { undoable: boolean }) => {
    if (!site || !entry) return;
    setBusy(historyId);
    setError(null);
    const item = history.data?.find((i) => i.id === historyId);
    const before = (item && entryIn(localeOf(item))?.fields) ?? entry.fields;
    try {
      await restoreVersion.mutateAsync({ historyId, version });
      setConflict(null);
      setUndo(then?.undoable === false ? null : { fields: before, at: new Date().toISOString() });
      notifications.show({ message: 'Restored into the working copy. Publish it to make it live.' });
    } catch (err) {
      if (isConflict(err)) {
        const by = await whoChanged(api, projectId, entryId).catch(() => ({ who: null, at: null }));
        setConflict({ historyId, ...by, currentVersion: currentVersionOf(err) });
      } else setError(alertOf(err));
    } finally {
      setBusy(null);
    }
  };

  // Undo restores the record that holds the replaced working copy: the "saved" row the server wrote, or
  // the version it already equalled.
  const undoTarget = undo ? history.data?.find((item) => sameValue(item.fields, undo.fields)) : undefined;

  return (
    <ReferencedEntries value={names}>
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
        {undo && entry && (
          <Alert color="blue" title="Restored into the working copy" role="status">
            <Group justify="space-between">
              <Text size="sm">
                The working copy it replaced is kept in this history; Undo brings it back. Publish to make the
                restored version live.
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  disabled={!undoTarget || busy !== null}
                  loading={busy !== null && busy === undoTarget?.id}
                  onClick={() =>
                    undoTarget &&
                    void restore(undoTarget.id, entryIn(localeOf(undoTarget))?.version ?? entry.version, {
                      undoable: false,
                    })
                  }
                >
                  Undo
                </Button>
                <Button size="xs" variant="default" onClick={() => setUndo(null)}>
                  Dismiss
                </Button>
              </Group>
            </Group>
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
              aria-label={`Version of ${formatTimeExact(item.at)}`}
            >
              <Stack gap="sm">
                <Group justify="space-between">
                  <Group gap="xs">
                    <Badge color={ACTIONS[item.action].color} variant="light" c="dark">
                      {ACTIONS[item.action].label}
                    </Badge>
                    {locales && (
                      <Badge
                        variant="outline"
                        color="dark"
                        tt="none"
                        aria-label={`Language ${localeOf(item)}`}
                      >
                        {localeOf(item)}
                      </Badge>
                    )}
                    <Text size="sm">
                      by <strong>{item.actor.email}</strong> on {formatTimeExact(item.at)}
                    </Text>
                  </Group>
                  <Button
                    size="xs"
                    variant="default"
                    loading={busy === item.id}
                    disabled={busy !== null}
                    onClick={() => setAsking({ id: item.id, at: item.at })}
                  >
                    Restore
                  </Button>
                </Group>
                <FieldDiff
                  version={item.fields}
                  working={(entryIn(localeOf(item)) ?? entry).fields}
                  fallbacks={entryIn(localeOf(item))?.fallbacks ?? {}}
                  locale={localeOf(item)}
                  decls={decls}
                />
              </Stack>
            </Paper>
          ))
        )}
        <ConfirmDialog
          opened={asking !== null}
          title="Restore this version?"
          confirmLabel="Restore"
          danger={false}
          busy={busy !== null}
          onClose={() => setAsking(null)}
          onConfirm={() => {
            if (!asking || !entry) return;
            const id = asking.id;
            setAsking(null);
            const item = history.data?.find((i) => i.id === id);
            void restore(id, (item && entryIn(localeOf(item))?.version) ?? entry.version);
          }}
        >
          The version of {asking ? formatTimeExact(asking.at) : ''} replaces the working copy (as a draft:
          nothing goes live until it is published). The working copy it replaces stays in this history, so you
          can undo or restore it later.
        </ConfirmDialog>
      </Stack>
    </ReferencedEntries>
  );
}
