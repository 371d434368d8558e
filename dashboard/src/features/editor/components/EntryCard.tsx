import { Alert, Anchor, Badge, Button, Group, JsonInput, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PartBoundary } from '../../../components/PartBoundary';
import { alertOf, messageOf } from '../../../lib/api';
import { detailsAt } from '../../../lib/details';
import { has, own } from '../../../lib/own';
import { useApi } from '../../auth';
import { pagePath } from '../../pages';
import { usePreviewBridge } from '../../preview';
import { ScheduleButton } from '../../schedules';
import {
  type ChangedBy,
  currentVersionOf,
  type Definition,
  type Entry,
  entryKeys,
  isConflict,
  type Site,
  whoChanged,
} from '../api/entries.api';
import {
  type RuleProblem,
  unpublishableProblems,
  useRemoveEntry,
  useSaveEntry,
  useUnpublishEntry,
} from '../api/entry-mutations';
import { type Draft, drafts } from '../lib/drafts';
import {
  type FieldType,
  type FormValue,
  isFieldType,
  jsonRows,
  misfitOf,
  sameValue,
  toForm,
  toWire,
  workingFields,
} from '../lib/fields';
import { elementsOf, keysOf, placeOf } from '../lib/places';
import { ConflictAlert } from './ConflictAlert';
import { DeleteDialog } from './DeleteDialog';
import { DraftBackupWarning } from './DraftBackupWarning';
import { FieldControl } from './FieldControl';
import { LocaleField } from './LocaleField';
import { LocaleStatus } from './LocaleStatus';
import { MisfitField } from './MisfitField';
import { type Decl, ProblemsContext, RevealContext } from './structured/decl';
import { UsedOnPages } from './UsedOnPages';
import { useRuleProblems } from './useRuleProblems';

type Action = 'save' | 'publish' | 'unpublish';

/** What takes the cursor when the preview selects a form, an item or a field. */
const FOCUSABLE = 'input:not([type=hidden]):not([readonly]), textarea, [contenteditable="true"]';

interface Props {
  entry: Entry;
  definition: Definition | undefined;
  site: Site;
  canDelete: boolean;
  onDirty(entryId: string, dirty: boolean): void;
  /** The entry the editor works on (picked in the preview or focused here). */
  active?: boolean;
  /** Changes each time the site in the preview selects this entry: the form is scrolled to and focused. */
  selectRequest?: number;
  /**
   * Where in the entry the site's click was (`features[_key=a].title`, lib/places.ts), with
   * selectRequest: that item is opened (and its containers), scrolled to, and its field focused.
   */
  selectPath?: string | null;
  /** Focus moved into this form; `path`: the field or item it is in (the site outlines it). */
  onFocusEntry?(entryId: string, path: string | null): void;
  /** This entry's problems in a refused page publish (422), shown at its fields. */
  refusal?: RuleProblem[] | undefined;
  /**
   * The locale the form reads and writes (a project with locales; undefined without). A card is made
   * per locale (PageEditorRoute keys it so): its draft, version and status are that locale's.
   */
  locale?: string | undefined;
  /** Side by side: the same entry read in another locale, shown read-only beside each field. */
  source?: Entry | undefined;
  /** The project's default locale (its values have no fallback to return to). */
  defaultLocale?: string | undefined;
}

/**
 * One entry as a form made from its definition. Edits live in a draft (src/features/editor/lib/drafts.ts)
 * written to storage on every change; saving sends only the changed keys, with If-Match of the version
 * the edits were made on. Memoised: a page of 100 entries re-renders only the form being typed in, not
 * every form when the page marks one unsaved (bench/browser-speed.mjs measures the typing latency).
 */
export const EntryCard = memo(function EntryCard({
  entry,
  definition,
  site,
  canDelete,
  onDirty,
  active = false,
  selectRequest = 0,
  selectPath = null,
  onFocusEntry,
  refusal,
  locale,
  source,
  defaultLocale,
}: Props) {
  const api = useApi();
  const preview = usePreviewBridge();
  const card = useRef<HTMLElement>(null);
  const queryClient = useQueryClient();
  const titleId = useId();
  const { projectId } = site;
  const [draft, setDraftState] = useState<Draft | null>(() => drafts.read(projectId, entry.id, locale));
  const [restored] = useState(() => draft !== null);
  const [error, setError] = useState<string | null>(null);
  /** The API's refusal of single fields (its `details`), shown at each field until it is changed. */
  const [refused, setRefused] = useState<Record<string, string>>({});
  const saveEntry = useSaveEntry(site);
  const unpublishEntry = useUnpublishEntry(site);
  const removeEntry = useRemoveEntry(site);
  const busy: Action | 'delete' | null = saveEntry.isPending
    ? saveEntry.variables?.publish
      ? 'publish'
      : 'save'
    : unpublishEntry.isPending
      ? 'unpublish'
      : removeEntry.isPending
        ? 'delete'
        : null;
  const [conflict, setConflict] = useState<(ChangedBy & { action: Action }) | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Bumped when the server's copy replaces what the controls show (the rich text editor keeps its own state).
  const [generation, setGeneration] = useState(0);

  const declared = ((definition?.fields ?? []) as Decl[]).filter((f): f is Decl & { type: FieldType } =>
    isFieldType(f.type),
  );
  const declaredKeys = new Set(declared.map((f) => f.key));
  const undeclared = Object.keys(entry.fields)
    .filter((k) => !declaredKeys.has(k))
    .sort();
  const edits = draft?.values ?? {};
  const dirty = draft !== null;

  // The draft as last set, read by change(): two changes before the next render (a nested field's
  // pending value lifted on blur, then another) build on each other instead of the older render's.
  const current = useRef(draft);
  const setDraft = (next: Draft | null) => {
    current.current = next;
    setDraftState(next);
    if (next) drafts.write(projectId, entry.id, next, locale);
    else drafts.remove(projectId, entry.id, locale);
  };

  useEffect(() => {
    onDirty(entry.id, dirty);
  }, [dirty, entry.id, onDirty]);
  useEffect(() => () => onDirty(entry.id, false), [entry.id, onDirty]);
  // A new version from the server with nothing of ours pending: show it (fresh controls). Not on mount:
  // that remounted every control of every entry once more as a page opened (twice the work on 100 entries).
  const shownVersion = useRef(entry.version);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new version should remount the controls
  useEffect(() => {
    if (entry.version === shownVersion.current) return;
    shownVersion.current = entry.version;
    if (draft === null) setGeneration((g) => g + 1);
  }, [entry.version]);

  // Restored edits show in the preview too, once its site connects.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per bridge; later edits are sent by change()
  useEffect(() => {
    if (draft) preview?.draft(entry.id, workingFields(entry.fields, declared, draft.values), true);
  }, [preview]);
  // Picked in the preview: the items on the way opened (RevealContext, in the same render), then the
  // form, or the item or field the click was in, brought into view with the cursor in its first field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: selectPath comes with each new selectRequest
  const reveal = useMemo(
    () => ({ keys: new Set(keysOf(selectPath)), request: selectRequest }),
    [selectRequest],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: selectPath comes with each new selectRequest
  useEffect(() => {
    const section = card.current;
    if (!selectRequest || !section) return;
    const { row, field } = selectPath ? elementsOf(section, selectPath) : { row: null, field: null };
    const scope = field ?? row ?? section;
    const input =
      scope.querySelector<HTMLElement>(FOCUSABLE) ?? (row ?? section).querySelector<HTMLElement>(FOCUSABLE);
    if (row) row.scrollIntoView({ block: 'center' });
    else if (field) input?.scrollIntoView({ block: 'center' });
    else section.scrollIntoView({ block: 'start' });
    input?.focus({ preventScroll: true });
  }, [selectRequest]);

  const change = (key: string, type: FieldType, value: FormValue) => {
    setError(null);
    setRefused((r) => (own(r, key) ? (({ [key]: _, ...rest }) => rest)(r) : r));
    const wire = toWire(type, value);
    const before = current.current;
    const values = { ...before?.values };
    if (wire.ok && sameValue(wire.value, own(entry.fields, key))) delete values[key];
    else values[key] = value;
    const dirtyNow = Object.keys(values).length > 0;
    setDraft(dirtyNow ? { version: before?.version ?? entry.version, values } : null);
    // Sent at once, not from an effect, so the site re-renders with the keystroke.
    preview?.draft(entry.id, workingFields(entry.fields, declared, values), dirtyNow);
  };

  // One function for the form's life, calling the latest change(): the memoised fields (FieldRow) keep
  // their props while another field is typed in.
  const latestChange = useRef(change);
  latestChange.current = change;
  const onField = useCallback(
    (key: string, type: FieldType, value: FormValue) => latestChange.current(key, type, value),
    [],
  );

  const problems = declared
    .filter((f) => has(edits, f.key))
    .map((f) => [f.key, toWire(f.type, edits[f.key]!)] as const)
    .filter(([, w]) => !w.ok);

  const working = workingFields(entry.fields, declared, edits);
  const rules = useRuleProblems(entry, working, refusal);
  const ruleProblems = rules.problems;

  const run = async (action: Action, overVersion?: number) => {
    setError(null);
    setRefused({});
    const fields: Record<string, unknown> = {};
    if (action !== 'unpublish') {
      if (problems.length > 0) {
        setError(`Fix ${problems.map(([k]) => k).join(', ')} first.`);
        return;
      }
      for (const f of declared) {
        const w = has(edits, f.key) ? toWire(f.type, edits[f.key]!) : null;
        if (w?.ok) fields[f.key] = w.value;
      }
    }
    try {
      if (action === 'unpublish') {
        const base = overVersion ?? entry.version;
        const saved = await unpublishEntry.mutateAsync({ entryId: entry.id, version: base, locale });
        // Unpublishing leaves the working copy alone, so pending edits still apply to the new version.
        if (draft && draft.version === base) setDraft({ ...draft, version: saved.version });
      } else {
        await saveEntry.mutateAsync({
          entryId: entry.id,
          fields,
          publish: action === 'publish',
          version: overVersion ?? draft?.version ?? entry.version,
          locale,
        });
        setDraft(null);
        rules.clear();
        // The site sees the saved copy through its live updates from now on.
        preview?.forget(entry.id);
      }
      setConflict(null);
      notifications.show({
        message: `${entry.instanceKey}: ${action === 'save' ? 'draft saved' : action === 'publish' ? 'published' : 'unpublished'}`,
      });
    } catch (err) {
      const refused = unpublishableProblems(err, entry.id);
      if (refused) {
        // Nothing was written (contract §17): the edits stay, the problems show at their fields.
        rules.refuse(refused, working);
        setError(
          `Not published: ${refused.length} ${refused.length === 1 ? 'problem' : 'problems'} to fix, shown at the fields. Save draft keeps your changes meanwhile.`,
        );
      } else if (isConflict(err)) {
        const by = await whoChanged(api, projectId, entry.id).catch(() => ({ who: null, at: null }));
        setConflict({ action, ...by, currentVersion: currentVersionOf(err) });
      } else if (alertOf(err) !== null) {
        // (An ended session shows nothing here: the sign-in is back, and the draft stays in storage.)
        const atFields = detailsAt(err, 'body.fields.');
        const keys = Object.keys(atFields);
        setRefused(atFields);
        setError(keys.length > 0 ? `Folio refused ${keys.join(', ')}: see below.` : messageOf(err));
      }
    }
  };

  const reload = async () => {
    setDraft(null);
    setConflict(null);
    await queryClient.invalidateQueries({ queryKey: entryKeys.entries(projectId, entry.pageId) });
    // My edits are dropped: the site shows the current copy again.
    const fresh = queryClient
      .getQueryData<Entry[]>(entryKeys.entries(projectId, entry.pageId, locale ?? null))
      ?.find((e) => e.id === entry.id);
    if (fresh) preview?.draft(entry.id, fresh.fields, false);
    preview?.forget(entry.id);
    setGeneration((g) => g + 1);
  };

  /**
   * Removes this locale's own value of one localized field (`null`, contract §17): it reads through the
   * fallback again. Saved at once, alone: pending edits of other fields stay in the draft, moved onto
   * the new version as an unpublish does.
   */
  const removeTranslation = async (key: string) => {
    setError(null);
    try {
      const saved = await saveEntry.mutateAsync({
        entryId: entry.id,
        fields: { [key]: null },
        publish: false,
        version: draft?.version ?? entry.version,
        locale,
      });
      if (draft && draft.version === entry.version) setDraft({ ...draft, version: saved.version });
      setGeneration((g) => g + 1);
    } catch (err) {
      if (isConflict(err)) {
        const by = await whoChanged(api, projectId, entry.id).catch(() => ({ who: null, at: null }));
        setConflict({ action: 'save', ...by, currentVersion: currentVersionOf(err) });
      } else setError(alertOf(err));
    }
  };

  const remove = (force: boolean) =>
    removeEntry.mutate(
      { entryId: entry.id, pageId: entry.pageId, force },
      { onSuccess: () => notifications.show({ message: `${entry.instanceKey}: deleted` }) },
    );

  return (
    <Paper
      ref={card}
      component="section"
      aria-labelledby={titleId}
      aria-current={active ? 'true' : undefined}
      className={active ? 'folio-entry-active' : undefined}
      onFocus={(event) => onFocusEntry?.(entry.id, card.current ? placeOf(card.current, event.target) : null)}
      data-folio-form
      withBorder
      p="md"
      radius="md"
    >
      <Stack>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Title order={2} size="h3" id={titleId}>
              {entry.instanceKey}
            </Title>
            <Badge variant="outline" color="dark" tt="none">
              {entry.componentId}
            </Badge>
            <Badge color={entry.status === 'published' ? 'green' : 'yellow'} variant="light" c="dark">
              {entry.publishedAt === null
                ? 'never published'
                : entry.status === 'published'
                  ? 'published'
                  : 'draft (live copy differs)'}
            </Badge>
            {dirty && (
              <Badge color="orange" variant="filled">
                unsaved changes
              </Badge>
            )}
            {locale && <LocaleStatus entry={entry} current={locale} />}
          </Group>
          <Anchor
            component={Link}
            size="sm"
            to={`${pagePath(projectId, entry.pageId)}/entries/${encodeURIComponent(entry.id)}/history`}
          >
            History
          </Anchor>
        </Group>
        <UsedOnPages projectId={projectId} entryId={entry.id} name={entry.instanceKey} />

        {restored && dirty && (
          <Text size="sm" role="status" c="orange.9">
            Unsaved changes from before were restored.
          </Text>
        )}
        {error && (
          <Alert color="red" role="alert" title="Not saved">
            {error}
          </Alert>
        )}
        {conflict && (
          <ConflictAlert
            changedBy={conflict}
            busy={busy !== null}
            onReload={() => void reload()}
            onOverwrite={() => void run(conflict.action, conflict.currentVersion ?? entry.version)}
          />
        )}

        <RevealContext value={reveal}>
          <ProblemsContext.Provider value={ruleProblems}>
            <Stack key={generation} gap="sm">
              {!definition && (
                <Text size="sm" c="dimmed">
                  No definition declares this entry's fields: they are shown as stored, read-only.
                </Text>
              )}
              {declared.map((f) => {
                const problem = problems.find(([k]) => k === f.key)?.[1];
                const messages = [
                  ...(problem && !problem.ok ? [problem.error] : []),
                  ...ruleProblems.at(`fields.${f.key}`),
                  ...(own(refused, f.key) ? [refused[f.key]!] : []),
                ];
                // A stored value its control cannot show (the declaration changed since): its problem
                // and a way to clear it instead, until an edit replaces it.
                const misfit =
                  f.key in edits ? null : misfitOf(f.type, f.multiple === true, entry.fields[f.key]);
                const row = (
                  <FieldRow
                    key={f.key}
                    decl={f}
                    site={site}
                    value={has(edits, f.key) ? edits[f.key]! : toForm(f.type, own(entry.fields, f.key))}
                    error={messages.length > 0 ? messages.join('; ') : null}
                    misfit={misfit === null ? null : { message: misfit, stored: entry.fields[f.key] }}
                    onField={onField}
                  />
                );
                // Without locales the form is exactly as before; with them each field says where its
                // value comes from, and side by side shows the source locale's beside it.
                if (!locale) return row;
                return (
                  <LocaleField
                    key={f.key}
                    label={typeof f.label === 'string' && f.label ? f.label : f.key}
                    locale={locale}
                    localized={f.localized === true}
                    fallbackFrom={has(edits, f.key) ? undefined : own(entry.fallbacks, f.key)}
                    source={
                      source ? { locale: source.locale ?? '', value: own(source.fields, f.key) } : undefined
                    }
                    onRemoveTranslation={
                      f.localized === true &&
                      entry.fallbacks !== undefined &&
                      !own(entry.fallbacks, f.key) &&
                      has(entry.fields, f.key) &&
                      !has(edits, f.key) &&
                      locale !== defaultLocale
                        ? () => void removeTranslation(f.key)
                        : undefined
                    }
                    busy={busy === 'save' && own(saveEntry.variables?.fields, f.key) === null}
                  >
                    {row}
                  </LocaleField>
                );
              })}
              {undeclared.map((key) => (
                <JsonInput
                  key={key}
                  label={key}
                  description="Not declared by the component: shown as stored, read-only"
                  value={JSON.stringify(entry.fields[key], null, 2)}
                  readOnly
                  rows={jsonRows(JSON.stringify(entry.fields[key], null, 2), 2, 10)}
                  ff="monospace"
                />
              ))}
            </Stack>
          </ProblemsContext.Provider>
        </RevealContext>

        {/* Above the buttons, not the fields: appearing as text is pasted, it moves nothing typed in. */}
        <DraftBackupWarning projectId={projectId} entryId={entry.id} locale={locale} />
        <Group>
          <Button
            variant="default"
            onClick={() => void run('save')}
            disabled={!dirty}
            loading={busy === 'save'}
          >
            Save draft
          </Button>
          <Button
            onClick={() => void run('publish')}
            disabled={!dirty && entry.status === 'published'}
            loading={busy === 'publish'}
            aria-describedby={rules.count > 0 ? `${titleId}-rules` : undefined}
            rightSection={
              rules.count > 0 ? (
                <Badge color="red" variant="white" c="red.9" size="sm" aria-hidden>
                  {rules.count}
                </Badge>
              ) : undefined
            }
          >
            {locale ? `Publish ${locale}` : 'Publish'}
          </Button>
          {rules.count > 0 && (
            <Text size="sm" c="red.9" id={`${titleId}-rules`}>
              {rules.count} {rules.count === 1 ? 'problem stops' : 'problems stop'} publishing
            </Text>
          )}
          <Button
            variant="default"
            onClick={() => void run('unpublish')}
            disabled={entry.publishedAt === null}
            loading={busy === 'unpublish'}
          >
            {locale ? `Unpublish ${locale}` : 'Unpublish'}
          </Button>
          <ScheduleButton
            site={site}
            target={{ kind: 'entry', entryId: entry.id, label: entry.instanceKey, unsaved: dirty, locale }}
          />
          {canDelete && (
            <Button color="red" variant="light" onClick={() => setConfirmDelete(true)} ml="auto">
              Delete
            </Button>
          )}
        </Group>
      </Stack>

      {/* Mounted only while open: a closed Modal still costs a portal and its hooks, times 100 entries. */}
      {confirmDelete && (
        <DeleteDialog
          site={site}
          title={`Delete ${entry.instanceKey}?`}
          busy={busy === 'delete'}
          error={removeEntry.error}
          onDelete={remove}
          onClose={() => {
            setConfirmDelete(false);
            removeEntry.reset();
          }}
        >
          The entry, its definition and its history are removed; if it is live, visitors stop seeing it. A
          later sync of the same component creates a new, empty entry. This cannot be undone.
        </DeleteDialog>
      )}
    </Paper>
  );
});

/**
 * One declared field of the form, memoised: typing in a list of 200 items re-renders that field's
 * control, not every other field of the entry (a blocks field of 30 sections beside it). Its place for
 * visual editing is marked on a wrapper without a box (lib/places.ts). A stored value the control
 * cannot show is a MisfitField instead; a control that fails anyway shows its error in its place
 * (PartBoundary), with the same way out: clearing the value.
 */
const FieldRow = memo(function FieldRow({
  decl,
  site,
  value,
  error,
  misfit,
  onField,
}: {
  decl: Decl & { type: FieldType };
  site: Site;
  value: FormValue;
  error: string | null;
  misfit: { message: string; stored: unknown } | null;
  onField(key: string, type: FieldType, value: FormValue): void;
}) {
  const clear = () => onField(decl.key, decl.type, '');
  const label = typeof decl.label === 'string' && decl.label ? decl.label : decl.key;
  return (
    <div className="folio-field" data-folio-field={decl.key}>
      {misfit ? (
        <MisfitField decl={decl} value={misfit.stored} message={misfit.message} onClear={clear} />
      ) : (
        <PartBoundary
          title={`${label} could not be shown`}
          rest="The other fields can still be edited; clearing this one removes its value when you save."
          recover={{ label: `Clear ${label}`, run: clear }}
        >
          <FieldControl
            fieldKey={decl.key}
            type={decl.type}
            declaration={decl}
            site={site}
            projectId={site.projectId}
            value={value}
            error={error}
            onChange={(v) => onField(decl.key, decl.type, v)}
          />
        </PartBoundary>
      )}
    </div>
  );
});
