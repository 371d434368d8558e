import { describe, expect, it } from 'vitest';
import { type FormEvent, type FormState, formReducer, initialFormState } from './entry-form';
import type { FormValue } from './fields';

const run = (state: FormState, ...events: FormEvent[]) => events.reduce(formReducer, state);
const typed = (key: string, value: FormValue, stored: unknown = 'Stored', version = 3): FormEvent => ({
  type: 'edit',
  key,
  fieldType: 'text',
  value,
  stored,
  version,
});

describe('the entry form reducer', () => {
  it('an edit makes a draft on the entry version; back to the stored value it is no edit', () => {
    const edited = run(initialFormState(null), typed('title', 'Storedx'));
    expect(edited.draft).toEqual({ version: 3, values: { title: 'Storedx' } });
    expect(run(edited, typed('title', 'Stored')).draft).toBeNull();
    // A second edit keeps the version of the first (the one the edits were made on).
    expect(run(edited, typed('body', 'b', '', 4)).draft?.version).toBe(3);
  });

  it('a save clears only what it sent: what was typed after the click stays, over the new version', () => {
    const before = run(initialFormState(null), typed('title', 'Hello'));
    const sent = before.draft!.values;
    const during = run(
      before,
      { type: 'sent', values: sent },
      typed('title', 'Hello, world'),
      typed('body', 'More'),
    );
    const after = run(during, { type: 'saved', sent, version: 4 });
    expect(after.draft).toEqual({ version: 4, values: { title: 'Hello, world', body: 'More' } });
    expect(after.sending).toBeNull();
  });

  it('a save of everything pending leaves no draft', () => {
    const before = run(initialFormState(null), typed('title', 'Hello'), typed('body', 'x'));
    const sent = before.draft!.values;
    expect(run(before, { type: 'sent', values: sent }, { type: 'saved', sent, version: 4 }).draft).toBeNull();
  });

  it('a value typed back to the stored one during a save stays an edit (the save will change it)', () => {
    const before = run(initialFormState(null), typed('title', 'Storedx'));
    const sent = before.draft!.values;
    const during = run(before, { type: 'sent', values: sent }, typed('title', 'Stored'));
    expect(during.draft?.values).toEqual({ title: 'Stored' });
    expect(run(during, { type: 'saved', sent, version: 4 }).draft).toEqual({
      version: 4,
      values: { title: 'Stored' },
    });
  });

  it('the values sent are compared as values: an equal list is done, a changed item is not', () => {
    const list = [{ _key: 'a', title: 'One' }];
    const edit = (value: FormValue): FormEvent => ({
      type: 'edit',
      key: 'items',
      fieldType: 'list',
      value,
      stored: [],
      version: 1,
    });
    const before = run(initialFormState(null), edit(list));
    const sent = before.draft!.values;
    const copied = run(before, { type: 'sent', values: sent }, edit([{ _key: 'a', title: 'One' }]));
    expect(run(copied, { type: 'saved', sent, version: 2 }).draft).toBeNull();
    const changed = run(before, { type: 'sent', values: sent }, edit([{ _key: 'a', title: 'One!' }]));
    expect(run(changed, { type: 'saved', sent, version: 2 }).draft?.values).toEqual({
      items: [{ _key: 'a', title: 'One!' }],
    });
  });

  it('an unpublish moves the pending edits (those typed meanwhile too) onto the new version', () => {
    const before = run(initialFormState(null), typed('title', 'A'));
    const after = run(before, { type: 'sent', values: null }, typed('body', 'later', ''), {
      type: 'rebased',
      from: 3,
      version: 5,
    });
    expect(after.draft).toEqual({ version: 5, values: { title: 'A', body: 'later' } });
    // Edits made on another version are left to the conflict dialog.
    expect(run(before, { type: 'rebased', from: 2, version: 5 }).draft?.version).toBe(3);
  });

  it('a removed translation resets its control only when nothing was typed into it meanwhile', () => {
    const state = run(initialFormState(null), typed('title', 'A'));
    const removed = run(state, { type: 'rebased', from: 3, version: 4, reset: 'subtitle' });
    expect(removed.resets).toEqual({ subtitle: 1 });
    expect(removed.draft).toEqual({ version: 4, values: { title: 'A' } });
    const typedInto = run(state, typed('subtitle', 'new', ''), {
      type: 'rebased',
      from: 3,
      version: 4,
      reset: 'subtitle',
    });
    expect(typedInto.resets).toEqual({});
  });

  it('a failed write keeps every edit and says why; an edit clears the refusal of its field', () => {
    const state = run(initialFormState(null), typed('title', 'A'), { type: 'sent', values: { title: 'A' } });
    const failed = run(state, {
      type: 'failed',
      error: 'Folio refused title',
      refused: { title: 'Too long' },
    });
    expect(failed.draft?.values).toEqual({ title: 'A' });
    expect(failed.sending).toBeNull();
    const retyped = run(failed, typed('title', 'AB'));
    expect(retyped.refused).toEqual({});
    expect(retyped.error).toBeNull();
  });

  it('field keys are data: __proto__ and constructor are fields like any other', () => {
    const state = run(initialFormState(null), typed('__proto__', 'p', ''), typed('constructor', 'c', ''));
    expect(Object.keys(state.draft!.values).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(state.draft!.values)).toBe(Object.prototype);
    const sent = state.draft!.values;
    expect(run(state, { type: 'saved', sent, version: 4 }).draft).toBeNull();
  });

  it('a newer copy remounts the controls only when nothing is pending; Reload drops the draft', () => {
    const restored = initialFormState({ version: 2, values: { title: 'kept' } });
    expect(restored.restored).toBe(true);
    expect(run(restored, { type: 'replaced' }).generation).toBe(0);
    const dropped = run(restored, { type: 'discarded' });
    expect(dropped.draft).toBeNull();
    expect(dropped.restored).toBe(false);
    expect(run(dropped, { type: 'replaced' }).generation).toBe(2);
  });
});
