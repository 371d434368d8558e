import { has, own } from '../../../lib/own';
import type { ChangedBy } from '../api/entries.api';
import type { Draft } from './drafts';
import { type FieldType, type FormValue, sameValue, toWire } from './fields';

/**
 * The state of one entry's form and every way it changes, as a pure reducer (unit-tested in
 * entry-form.test.ts): what the editor typed (the draft), what a write in flight sent of it, and what
 * the form says about the last write. The rule that matters most: a write answers for the values it
 * sent, not for the form as it is when the answer comes. The controls stay enabled during a save, so
 * whatever was typed after the click stays pending (and in the unsaved-draft backup) until it is saved
 * too. The component (useEntryForm) sends the requests and hands their outcomes here.
 */

export type Action = 'save' | 'publish' | 'unpublish';

export type Conflict = ChangedBy & { action: Action };

export interface FormState {
  /** The pending edits and the version they were made on (null: nothing pending). */
  draft: Draft | null;
  /** The values a write in flight sent (a save or a publish), null when none is in flight. */
  sending: Record<string, FormValue> | null;
  error: string | null;
  /** The API's refusal of single fields (its `details`), shown at each field until it is changed. */
  refused: Record<string, string>;
  conflict: Conflict | null;
  /** Bumped when the server's copy replaces what every control shows (controls keep their own state). */
  generation: number;
  /** Per field, bumped when that one control must show the server's copy again (a removed translation). */
  resets: Record<string, number>;
  /** The draft came from the backup in storage (shown once, until it is saved or dropped). */
  restored: boolean;
}

export type FormEvent =
  /** A control's new value; `stored`: the field's value in the entry as read, `version` that entry's. */
  | { type: 'edit'; key: string; fieldType: FieldType; value: FormValue; stored: unknown; version: number }
  /** A write was sent: a save or publish of `values` (the draft's, as they were then), else null. */
  | { type: 'sent'; values: Record<string, FormValue> | null }
  /** The server stored `sent` at `version`: only the edits still equal to what was sent are done. */
  | { type: 'saved'; sent: Record<string, FormValue>; version: number }
  /**
   * A write that leaves the pending edits to apply (an unpublish, a removed translation) made `version`
   * out of `from`: edits made on `from` now apply to `version`. `reset`: a field whose control shows
   * the server's copy again.
   */
  | { type: 'rebased'; from: number; version: number; reset?: string }
  /** A write failed: the edits stay; `error` and the fields it names (`refused`) are shown. */
  | { type: 'failed'; error: string | null; refused?: Record<string, string> }
  | { type: 'conflict'; conflict: Conflict }
  /** The editor dropped their edits ("Reload" after a conflict): the stored copy is shown again. */
  | { type: 'discarded' }
  /** A newer copy arrived from the server: shown in fresh controls unless edits are pending. */
  | { type: 'replaced' };

export function initialFormState(draft: Draft | null): FormState {
  return {
    draft,
    sending: null,
    error: null,
    refused: {},
    conflict: null,
    generation: 0,
    resets: {},
    restored: draft !== null,
  };
}

/** A copy of `record` without `key` (own keys only: a field may be named `__proto__` or `constructor`). */
function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  return has(record, key) ? Object.fromEntries(Object.entries(record).filter(([k]) => k !== key)) : record;
}

const draftOf = (values: Record<string, FormValue>, version: number): Draft | null =>
  Object.keys(values).length > 0 ? { version, values } : null;

export function formReducer(state: FormState, event: FormEvent): FormState {
  switch (event.type) {
    case 'edit': {
      const { key, value } = event;
      const wire = toWire(event.fieldType, value);
      // Back to the stored value: no longer an edit. Unless a write in flight sent another value of
      // it: when that is stored, this value (the stored one as it was) is the edit.
      const asStored =
        wire.ok && sameValue(wire.value, event.stored) && !(state.sending && has(state.sending, key));
      const rest = Object.entries(state.draft?.values ?? {}).filter(([k]) => k !== key);
      const values = Object.fromEntries(asStored ? rest : [...rest, [key, value]]);
      return {
        ...state,
        draft: draftOf(values, state.draft?.version ?? event.version),
        error: null,
        refused: without(state.refused, key),
      };
    }
    case 'sent':
      return { ...state, sending: event.values, error: null, refused: {} };
    case 'saved': {
      const { sent } = event;
      // What was typed after the click (a key the save did not send, or a value changed since) stays
      // pending, now over the saved version.
      const later = Object.entries(state.draft?.values ?? {}).filter(
        ([k, v]) => !(has(sent, k) && sameValue(v, sent[k])),
      );
      const draft = draftOf(Object.fromEntries(later), event.version);
      return {
        ...state,
        draft,
        sending: null,
        conflict: null,
        restored: state.restored && draft !== null,
      };
    }
    case 'rebased': {
      const { draft } = state;
      const reset = event.reset;
      return {
        ...state,
        draft: draft && draft.version === event.from ? { ...draft, version: event.version } : draft,
        conflict: null,
        // Only a control nothing was typed into since: the one typed into keeps its text and focus.
        resets:
          reset !== undefined && !has(draft?.values, reset)
            ? { ...state.resets, [reset]: (own(state.resets, reset) ?? 0) + 1 }
            : state.resets,
      };
    }
    case 'failed':
      return { ...state, sending: null, error: event.error, refused: event.refused ?? {} };
    case 'conflict':
      return { ...state, sending: null, conflict: event.conflict };
    case 'discarded':
      return {
        ...state,
        draft: null,
        sending: null,
        conflict: null,
        error: null,
        refused: {},
        restored: false,
        generation: state.generation + 1,
      };
    case 'replaced':
      return state.draft === null ? { ...state, generation: state.generation + 1 } : state;
  }
}
