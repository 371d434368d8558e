import { Alert, Anchor, Badge, Button, Group, JsonInput, Paper, Stack, Text, Title } from '@mantine/core';
import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { has, own } from '../../../lib/own';
import { pagePath } from '../../pages';
import { ScheduleButton } from '../../schedules';
import type { Definition, Entry, Site } from '../api/entries.api';
import type { RuleProblem } from '../api/entry-mutations';
import { type FieldType, isFieldType, jsonRows, misfitOf, toForm } from '../lib/fields';
import { elementsOf, keysOf, placeOf } from '../lib/places';
import { ConflictAlert } from './ConflictAlert';
import { DeleteDialog } from './DeleteDialog';
import { DraftBackupWarning } from './DraftBackupWarning';
import { FieldRow } from './FieldRow';
import { LocaleField } from './LocaleField';
import { LocaleStatus } from './LocaleStatus';
import { type Decl, ProblemsContext, RevealContext } from './structured/decl';
import { UsedOnPages } from './UsedOnPages';
import { useEntryForm } from './useEntryForm';

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
 * the edits were made on. The state and the writes are useEntryForm's (its reducer: lib/entry-form.ts);
 * this component shows them. Memoised: a page of 100 entries re-renders only the form being typed in, not
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
  const card = useRef<HTMLElement>(null);
  const titleId = useId();
  const { projectId } = site;
  const [confirmDelete, setConfirmDelete] = useState(false);

  const declared = ((definition?.fields ?? []) as Decl[]).filter((f): f is Decl & { type: FieldType } =>
    isFieldType(f.type),
  );
  const declaredKeys = new Set(declared.map((f) => f.key));
  const undeclared = Object.keys(entry.fields)
    .filter((k) => !declaredKeys.has(k))
    .sort();
  const form = useEntryForm({ entry, declared, site, locale, refusal });
  const { state, edits, dirty, busy, rules, onField, run } = form;
  const { error, refused, conflict } = state;
  const ruleProblems = rules.problems;

  useEffect(() => {
    onDirty(entry.id, dirty);
  }, [dirty, entry.id, onDirty]);
  useEffect(() => () => onDirty(entry.id, false), [entry.id, onDirty]);

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

        {state.restored && dirty && (
          <Text size="sm" role="status" c="orange.9">
            Unsaved changes from before were restored.
          </Text>
        )}
        {error && (
          <Alert color="red" role="alert" title={form.errorTitle}>
            {error}
          </Alert>
        )}
        {conflict && (
          <ConflictAlert
            changedBy={conflict}
            busy={busy !== null}
            onReload={() => void form.reload()}
            onOverwrite={() => void run(conflict.action, conflict.currentVersion ?? entry.version)}
          />
        )}

        <RevealContext value={reveal}>
          <ProblemsContext.Provider value={ruleProblems}>
            <Stack key={state.generation} gap="sm">
              {!definition && (
                <Text size="sm" c="dimmed">
                  No definition declares this entry's fields: they are shown as stored, read-only.
                </Text>
              )}
              {declared.map((f) => {
                const problem = form.invalid.find(([k]) => k === f.key)?.[1];
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
                    key={`${f.key}.${own(state.resets, f.key) ?? 0}`}
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
                    defaultLocale={defaultLocale}
                    decl={f}
                    edited={has(edits, f.key)}
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
                        ? () => void form.removeTranslation(f.key)
                        : undefined
                    }
                    busy={form.removing(f.key)}
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
          error={form.removeEntry.error}
          onDelete={form.remove}
          onClose={() => {
            setConfirmDelete(false);
            form.removeEntry.reset();
          }}
        >
          The entry, its definition and its history are removed; if it is live, visitors stop seeing it. A
          later sync of the same component creates a new, empty entry. This cannot be undone.
        </DeleteDialog>
      )}
    </Paper>
  );
});
