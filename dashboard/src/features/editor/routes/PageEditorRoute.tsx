import { Alert, Anchor, Breadcrumbs, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { PartBoundary } from '../../../components/PartBoundary';
import { alertOf } from '../../../lib/api';
import { useUser } from '../../auth';
import { pageKeys } from '../../pages';
import { PreviewContext, PreviewPane, usePagePreview } from '../../preview';
import { useProject, useProjects } from '../../projects';
import { ScheduleButton, ScheduledList } from '../../schedules';
import { entryKeys, useDefinitions, usePageEntries } from '../api/entries.api';
import { type RuleProblem, unpublishableProblems, usePublishPage } from '../api/entry-mutations';
import { DeletePageButton } from '../components/DeletePageButton';
import { EntryCard } from '../components/EntryCard';
import { LocaleBar } from '../components/LocaleBar';
import { UnsavedChangesPrompt } from '../components/UnsavedChangesPrompt';
import { drafts } from '../lib/drafts';
import { useEditorLocale } from '../lib/locale-choice';

const PUBLISH_PAGE_HINT = 'Save or publish your changes before publishing the whole page.';

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
  const user = useUser();
  const locales = project.data?.locales ?? null;
  // The locale the forms read and write (undefined in a project without locales: no `?locale=` anywhere).
  // The preview pane follows it: a preview URL with `{locale}` shows the site in this locale (the frame
  // reloads on a switch), so the drafts it is sent are the ones it shows.
  const [locale, setLocale] = useEditorLocale(user.id, projectId, locales);
  // Side by side: the locale shown read-only beside the forms (never the one being edited).
  const [sourceChoice, setSourceChoice] = useState<string | null>(null);
  const source =
    locale !== undefined && sourceChoice !== null && sourceChoice !== locale ? sourceChoice : null;
  // Without locales the page is read only once the project says so, so no read is made in a locale it lacks.
  const entries = usePageEntries(site, pageId, locale, project.data !== undefined);
  const sourceEntries = usePageEntries(site, pageId, source ?? undefined, source !== null);
  const sourceById = useMemo(
    () => new Map((source ? (sourceEntries.data ?? []) : []).map((e) => [e.id, e])),
    [source, sourceEntries.data],
  );
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

  /** `inLocale`: the locale being edited, or `*` for every locale (undefined without locales). */
  const publishPage = async (inLocale?: string) => {
    if (!site) return;
    setError(null);
    setRefusal(new Map());
    try {
      const result = await publishPageWrite.mutateAsync({ locale: inLocale });
      const where = inLocale === '*' ? ' in every language' : inLocale ? ` in ${inLocale}` : '';
      notifications.show({
        message:
          result.published.length === 0
            ? `Nothing to publish${where}: every entry is live as it is.`
            : `Published ${result.published.length} ${result.published.length === 1 ? 'entry' : 'entries'}${where}.`,
      });
    } catch (err) {
      const byEntry = new Map<string, RuleProblem[]>();
      for (const e of entries.data ?? []) {
        const problems = unpublishableProblems(err, e.id, locale);
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
      <Group justify="space-between" wrap="nowrap">
        <Breadcrumbs>
          <Anchor component={Link} to={`/p/${projectId}/pages`}>
            Pages
          </Anchor>
          <Text ff="monospace">{pageId}</Text>
        </Breadcrumbs>
        {/* In the breadcrumbs' row, not a line of its own: appearing at the first edit, that line
            moved every form 36 px down, under a pointer on its way to a control (issue 44). Always
            laid out (hidden while nothing is unsaved) and kept to one line, so it never moves them. */}
        <Text
          size="sm"
          c="dimmed"
          truncate="end"
          title={PUBLISH_PAGE_HINT}
          style={dirty.size > 0 ? undefined : { visibility: 'hidden' }}
        >
          {PUBLISH_PAGE_HINT}
        </Text>
      </Group>
      <Group justify="space-between">
        <Title order={1}>
          Page{' '}
          <Text span inherit ff="monospace">
            {pageId}
          </Text>
        </Title>
        <Group gap="xs" role="group" aria-label="Page actions">
          {site && (
            <ScheduleButton site={site} target={{ kind: 'page', pageId, locale }} disabled={!ready}>
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
            onClick={() => void publishPage(locale)}
            loading={publishPageWrite.isPending && publishPageWrite.variables?.locale === locale}
            disabled={!ready || dirty.size > 0 || publishPageWrite.isPending}
          >
            {locale ? `Publish page in ${locale}` : 'Publish page'}
          </Button>
          {locale && (
            <Button
              variant="light"
              onClick={() => void publishPage('*')}
              loading={publishPageWrite.isPending && publishPageWrite.variables?.locale === '*'}
              disabled={!ready || dirty.size > 0 || publishPageWrite.isPending}
            >
              Publish in every language
            </Button>
          )}
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
      {locales && locale && (
        <LocaleBar
          locales={locales}
          locale={locale}
          onLocale={setLocale}
          source={source}
          onSource={setSourceChoice}
        />
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
                // One card per locale: its draft, version and status are that locale's. A form that
                // fails to render shows its error in its place; the page's other entries stay editable.
                <PartBoundary
                  key={locale ? `${entry.id}.${locale}` : entry.id}
                  title={`The form of ${entry.instanceKey} could not be shown`}
                  rest="The page's other entries can still be edited; its unsaved changes are kept in this browser."
                >
                  <EntryCard
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
                    locale={locale}
                    source={sourceById.get(entry.id)}
                    defaultLocale={locales?.default}
                  />
                </PartBoundary>
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
              locale={locale}
            />
          )}
        </div>
      </PreviewContext>
      <UnsavedChangesPrompt
        when={dirty.size > 0}
        onLeave={() => {
          for (const id of dirty) drafts.remove(projectId, id, locale);
        }}
      />
    </Stack>
  );
}
