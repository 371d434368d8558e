import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { alertOf, messageOf } from '../../../lib/api';
import { detailsAt } from '../../../lib/details';
import { has, own } from '../../../lib/own';
import { useApi } from '../../auth';
import { usePreviewBridge } from '../../preview';
import {
  currentVersionOf,
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
import { drafts } from '../lib/drafts';
import {
  type Action,
  type FormEvent,
  type FormState,
  formReducer,
  initialFormState,
} from '../lib/entry-form';
import { type FieldType, type FormValue, toWire, workingFields } from '../lib/fields';
import { fixFirst, notDone, notPublished, refusedFields } from '../lib/words';
import { useRuleProblems } from './useRuleProblems';

interface Options {
  entry: Entry;
  /** The declared fields the form edits. */
  declared: { key: string; type: FieldType }[];
  site: Site;
  locale: string | undefined;
  refusal: RuleProblem[] | undefined;
}

/**
 * An entry form's state and writes (EntryCard shows them). The state changes only through
 * lib/entry-form.ts's reducer; this hook sends the requests and hands their outcomes to it. Each write
 * sends a snapshot of the draft taken at the click and, when it succeeds, clears only what it sent: the
 * controls stay enabled meanwhile, and what is typed after the click stays pending, in the backup
 * (lib/drafts.ts) and in the preview.
 *
 * The state is kept in a ref as well as in React's: two edits before the next render (a nested field's
 * pending value lifted on blur, then another) build on each other, and a write's answer is applied to
 * the draft as it is then, not as it was when the click's render was made.
 */
export function useEntryForm({ entry, declared, site, locale, refusal }: Options) {
  const api = useApi();
  const preview = usePreviewBridge();
  const queryClient = useQueryClient();
  const { projectId } = site;
  const entryId = entry.id;
  const [state, setState] = useState(() => initialFormState(drafts.read(projectId, entryId, locale)));
  const current = useRef(state);
  const [errorTitle, setErrorTitle] = useState('Not saved');
  const saveEntry = useSaveEntry(site);
  // A save of its own: removing a translation does not show the Save button busy.
  const removeTranslationWrite = useSaveEntry(site);
  const unpublishEntry = useUnpublishEntry(site);
  const removeEntry = useRemoveEntry(site);

  /** Applies an event; the backup in storage follows the draft (later edits included). */
  const dispatch = useCallback(
    (event: FormEvent): FormState => {
      const before = current.current;
      const next = formReducer(before, event);
      if (next === before) return next;
      current.current = next;
      setState(next);
      if (next.draft !== before.draft) {
        if (next.draft) drafts.write(projectId, entryId, next.draft, locale);
        else drafts.remove(projectId, entryId, locale);
      }
      return next;
    },
    [projectId, entryId, locale],
  );

  // A new version from the server with nothing of ours pending: show it (fresh controls). Not on mount:
  // that remounted every control of every entry once more as a page opened (twice the work on 100 entries).
  const shownVersion = useRef(entry.version);
  useEffect(() => {
    if (entry.version === shownVersion.current) return;
    shownVersion.current = entry.version;
    dispatch({ type: 'replaced' });
  }, [entry.version, dispatch]);

  const working = (fields: Record<string, unknown>, values: Record<string, FormValue>) =>
    workingFields(fields, declared, values);
  // Restored edits show in the preview too, once its site connects (later ones are sent by edit()).
  const restoredView = useRef(() => {});
  restoredView.current = () => {
    const { draft } = current.current;
    if (draft) preview?.draft(entryId, working(entry.fields, draft.values), true, locale);
  };
  useEffect(() => {
    if (preview) restoredView.current();
  }, [preview]);

  const edit = (key: string, type: FieldType, value: FormValue) => {
    const next = dispatch({
      type: 'edit',
      key,
      fieldType: type,
      value,
      stored: own(entry.fields, key),
      version: entry.version,
    });
    // Sent at once, not from an effect, so the site re-renders with the keystroke.
    preview?.draft(entryId, working(entry.fields, next.draft?.values ?? {}), next.draft !== null, locale);
  };
  // One function for the form's life, calling the latest edit(): the memoised fields keep their props
  // while another field is typed in.
  const latestEdit = useRef(edit);
  latestEdit.current = edit;
  const onField = useCallback(
    (key: string, type: FieldType, value: FormValue) => latestEdit.current(key, type, value),
    [],
  );

  const edits = state.draft?.values ?? {};
  const invalidOf = (values: Record<string, FormValue>) =>
    declared
      .filter((f) => has(values, f.key))
      .map((f) => [f.key, toWire(f.type, values[f.key]!)] as const)
      .filter(([, w]) => !w.ok);
  const rules = useRuleProblems(entry, working(entry.fields, edits), refusal);

  const failed = async (err: unknown, action: Action, values: Record<string, FormValue>) => {
    const refused = action === 'unpublish' ? null : unpublishableProblems(err, entryId);
    if (refused) {
      // Nothing was written (contract §17): the edits stay, the problems show at their fields.
      rules.refuse(refused, working(entry.fields, values));
      dispatch({
        type: 'failed',
        error: notPublished(refused.length, current.current.draft !== null),
      });
    } else if (isConflict(err)) {
      const by = await whoChanged(api, projectId, entryId).catch(() => ({ who: null, at: null }));
      dispatch({ type: 'conflict', conflict: { action, ...by, currentVersion: currentVersionOf(err) } });
    } else if (alertOf(err) !== null) {
      const atFields = detailsAt(err, 'body.fields');
      const keys = Object.keys(atFields);
      dispatch({
        type: 'failed',
        error: keys.length > 0 ? refusedFields(declared, keys) : messageOf(err),
        refused: atFields,
      });
    } else {
      // An ended session: the sign-in is back, and the draft stays in storage.
      dispatch({ type: 'failed', error: null });
    }
  };

  const run = async (action: Action, overVersion?: number) => {
    setErrorTitle(notDone(action));
    // The snapshot this write sends; the draft may grow while it is in flight.
    const draft = current.current.draft;
    const values = draft?.values ?? {};
    try {
      if (action === 'unpublish') {
        dispatch({ type: 'sent', values: null });
        const base = overVersion ?? entry.version;
        const saved = await unpublishEntry.mutateAsync({ entryId, version: base, locale });
        // Unpublishing leaves the working copy alone: pending edits (those typed meanwhile too) apply
        // to the new version.
        dispatch({ type: 'rebased', from: base, version: saved.version });
      } else {
        const invalid = invalidOf(values);
        if (invalid.length > 0) {
          dispatch({
            type: 'failed',
            error: fixFirst(
              declared,
              invalid.map(([k]) => k),
            ),
          });
          return;
        }
        const fields: Record<string, unknown> = {};
        for (const f of declared) {
          const w = has(values, f.key) ? toWire(f.type, values[f.key]!) : null;
          if (w?.ok) fields[f.key] = w.value;
        }
        dispatch({ type: 'sent', values });
        const saved = await saveEntry.mutateAsync({
          entryId,
          fields,
          publish: action === 'publish',
          version: overVersion ?? draft?.version ?? entry.version,
          locale,
        });
        const next = dispatch({ type: 'saved', sent: values, version: saved.version });
        rules.clear();
        // The site sees the saved copy through its live updates from now on, with what was typed
        // meanwhile over it.
        if (next.draft) preview?.draft(entryId, working(saved.fields, next.draft.values), true, locale);
        else preview?.forget(entryId, locale);
      }
      notifications.show({
        message: `${entry.instanceKey}: ${action === 'save' ? 'draft saved' : action === 'publish' ? 'published' : 'unpublished'}`,
      });
    } catch (err) {
      await failed(err, action, values);
    }
  };

  const reload = async () => {
    dispatch({ type: 'discarded' });
    await queryClient.invalidateQueries({ queryKey: entryKeys.entries(projectId, entry.pageId) });
    // My edits are dropped: the site shows the current copy again.
    const fresh = queryClient
      .getQueryData<Entry[]>(entryKeys.entries(projectId, entry.pageId, locale ?? null))
      ?.find((e) => e.id === entryId);
    if (fresh) preview?.draft(entryId, fresh.fields, false, locale);
    preview?.forget(entryId, locale);
    dispatch({ type: 'replaced' });
  };

  /**
   * Removes this locale's own value of one localized field (`null`, contract §17): it reads through the
   * fallback again. Saved at once, alone: pending edits of other fields stay in the draft (those typed
   * while it is saved too), moved onto the new version as an unpublish does.
   */
  const removeTranslation = async (key: string) => {
    const from = current.current.draft?.version ?? entry.version;
    dispatch({ type: 'sent', values: null });
    try {
      const saved = await removeTranslationWrite.mutateAsync({
        entryId,
        fields: { [key]: null },
        publish: false,
        version: from,
        locale,
      });
      dispatch({ type: 'rebased', from, version: saved.version, reset: key });
    } catch (err) {
      if (isConflict(err)) await failed(err, 'save', {});
      else dispatch({ type: 'failed', error: alertOf(err) });
    }
  };

  const remove = (force: boolean) =>
    removeEntry.mutate(
      { entryId, pageId: entry.pageId, force },
      { onSuccess: () => notifications.show({ message: `${entry.instanceKey}: deleted` }) },
    );

  const busy: Action | 'delete' | null = saveEntry.isPending
    ? saveEntry.variables?.publish
      ? 'publish'
      : 'save'
    : unpublishEntry.isPending
      ? 'unpublish'
      : removeEntry.isPending
        ? 'delete'
        : null;

  return {
    state,
    edits,
    dirty: state.draft !== null,
    /** The title of the form's alert: what did not happen (a refused publish left the saved draft). */
    errorTitle,
    /** Pending values a control cannot send yet (a bad date), with why. */
    invalid: invalidOf(edits),
    rules,
    busy,
    /** A removal of this field's translation is in flight. */
    removing: (key: string) =>
      removeTranslationWrite.isPending && own(removeTranslationWrite.variables?.fields, key) === null,
    onField,
    run,
    reload,
    removeTranslation,
    remove,
    removeEntry,
  };
}
