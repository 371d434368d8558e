import { Alert, Anchor, Breadcrumbs, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { alertOf } from '../../../lib/api';
import { pageKeys } from '../../pages';
import { PreviewContext, PreviewPane, usePagePreview } from '../../preview';
import { useProject, useProjects } from '../../projects';
import { ScheduleButton, ScheduledList } from '../../schedules';
import { entryKeys, useDefinitions, usePageEntries } from '../api/entries.api';
import { type RuleProblem, unpublishableProblems, usePublishPage } from '../api/entry-mutations';
import { DeletePageButton } from '../components/DeletePageButton';
import { EntryCard } from '../components/EntryCard';
import { UnsavedChangesPrompt } from '../components/UnsavedChangesPrompt';
import { drafts } from '../lib/drafts';

/**
 * A page: its entries in order, each as a form; "Publish page" publishes every draft of it. Beside
 * them, the site's page in the preview pane (src/features/preview): a component clicked there selects
 * its form here, and the forms' unsaved values show there as they are typed.
 */
export function PageEditorRoute() {
  const params = useParams();
  const projectId = params.projectId!;
  const pageId = params.pageId!;
  const queryClient = useQueryClient();
  const project = useProject(projectId);
  const role = useProjects().data?.find((p) => p.id === projectId)?.role;
  const apiKey = project.data?.apiKey;
  // One object per key, so the memoised entry forms do not all re-render when the page does.
  const site = useMemo(() => (apiKey ? { projectId, apiKey } : undefined), [projectId, apiKey]);
  const entries = usePageEntries(site, pageId);
  const definitions = useDefinitions(projectId, pageId);
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const publishPageWrite = usePublishPage(site, pageId);
  // A refused page publish (422): each entry's problems, shown at its fields (one array per entry, so
  // the memoised forms of the others do not re-render).
  const [refusal, setRefusal] = useState<Map<string, RuleProblem[]>>(new Map());
  const preview = usePagePreview(projectId, pageId);
  const previewUrl = project.data?.previewUrl ?? null;
  // Shown at first when the project has a preview URL; the toggle's choice holds for this screen.
  const [previewChoice, setPreviewChoice] = useState<boolean | null>(null);
  const previewShown = previewChoice ?? previewUrl !== null;
  const [focused, setFocused] = useState<string | null>(null);
  const selected = preview.selection;
  const activeEntry = focused ?? selected?.entryId ?? null;
  const bridge = preview.bridge;
  // Focus in a form outlines its component in the site.
  const onFocusEntry = useCallback(
    (entryId: string, path: string | null) => {
      bridge.highlight(entryId, path);
      setFocused(entryId);
    },
    [bridge],
  );
  const [deleted, setDeleted] = useState(false);

  const onDirty = useCallback((entryId: string, isDirty: boolean) => {
    setDirty((prev) => {
      if (prev.has(entryId) === isDirty) return prev;
      const next = new Set(prev);
      if (isDirty) next.add(entryId);
      else next.delete(entryId);
      return next;
    });
  }, []);

  const publishPage = async () => {
    if (!site) return;
    setError(null);
    setRefusal(new Map());
    try {
      const result = await publishPageWrite.mutateAsync();
      notifications.show({
        message:
          result.published.length === 0
            ? 'Nothing to publish: every entry is live as it is.'
            : `Published ${result.published.length} ${result.published.length === 1 ? 'entry' : 'entries'}.`,
      });
    } catch (err) {
      const byEntry = new Map<string, RuleProblem[]>();
      for (const e of entries.data ?? []) {
        const problems = unpublishableProblems(err, e.id);
        if (problems?.length) byEntry.set(e.id, problems);
      }
      if (byEntry.size > 0) {
        setRefusal(byEntry);
        setError(
          `Nothing was published: ${[...byEntry.values()].flat().length} problems to fix, shown at the fields of ${[...byEntry.keys()].length === 1 ? 'one entry' : `${byEntry.size} entries`}.`,
        );
      } else setError(alertOf(err));
    }
  };

  // A schedule of this page ran: show what it published or took down.
  const onScheduleRan = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: entryKeys.page(projectId, pageId) });
    void queryClient.invalidateQueries({ queryKey: pageKeys.list(projectId) });
  }, [queryClient, projectId, pageId]);

  // Deleted: back to the pages list (unmounting the unsaved-changes prompt first, so it does not ask).
  if (deleted) return <Navigate to={`/p/${projectId}/pages`} replace />;
  const ready = entries.data && definitions.data;
  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} to={`/p/${projectId}/pages`}>
          Pages
        </Anchor>
        <Text ff="monospace">{pageId}</Text>
      </Breadcrumbs>
      <Group justify="space-between">
        <Title order={1}>
          Page{' '}
          <Text span inherit ff="monospace">
            {pageId}
          </Text>
        </Title>
        <Group gap="xs" role="group" aria-label="Page actions">
          {site && (
            <ScheduleButton site={site} target={{ kind: 'page', pageId }} disabled={!ready}>
              Schedule page
            </ScheduleButton>
          )}
          <Button
            variant={previewShown ? 'light' : 'default'}
            aria-pressed={previewShown}
            onClick={() => setPreviewChoice(!previewShown)}
          >
            Preview
          </Button>
          <Button
            onClick={() => void publishPage()}
            loading={publishPageWrite.isPending}
            disabled={!ready || dirty.size > 0}
          >
            Publish page
          </Button>
          {site && role === 'admin' && entries.data && (
            <DeletePageButton
              site={site}
              pageId={pageId}
              entryIds={entries.data.map((e) => e.id)}
              onDeleted={() => setDeleted(true)}
            />
          )}
        </Group>
      </Group>
      {dirty.size > 0 && (
        <Text size="sm" c="dimmed">
          Save or publish your changes before publishing the whole page.
        </Text>
      )}
      {error && (
        <Alert color="red" role="alert" title="Could not publish the page">
          {error}
        </Alert>
      )}
      {ready && (
        <ScheduledList
          projectId={projectId}
          pageId={pageId}
          entries={new Map(entries.data.map((e) => [e.id, e.instanceKey]))}
          onRan={onScheduleRan}
        />
      )}
      <PreviewContext value={bridge}>
        <div className="folio-page-layout" data-preview={previewShown ? 'true' : 'false'}>
          <Stack className="folio-page-forms">
            {!ready ? (
              <QueryState
                query={project.isError ? project : entries.isError ? entries : definitions}
                what="this page"
              />
            ) : entries.data.length === 0 ? (
              <Text>This page has no entries.</Text>
            ) : (
              entries.data.map((entry) => (
                <EntryCard
                  key={entry.id}
                  entry={entry}
                  definition={definitions.data.find((d) => d.instanceKey === entry.instanceKey)}
                  site={site!}
                  canDelete={role === 'admin'}
                  onDirty={onDirty}
                  active={entry.id === activeEntry}
                  selectRequest={selected?.entryId === entry.id ? selected.request : 0}
                  selectPath={selected?.entryId === entry.id ? selected.path : null}
                  onFocusEntry={onFocusEntry}
                  refusal={refusal.get(entry.id)}
                />
              ))
            )}
          </Stack>
          {previewShown && project.data && (
            <PreviewPane
              projectId={projectId}
              pageId={pageId}
              previewUrl={previewUrl}
              bridge={bridge}
              status={preview.status}
            />
          )}
        </div>
      </PreviewContext>
      <UnsavedChangesPrompt
        when={dirty.size > 0}
        onLeave={() => {
          for (const id of dirty) drafts.remove(projectId, id);
        }}
      />
    </Stack>
  );
}
