import type { Schemas } from '@folio/client';
import { Checkbox, Group, Input, MultiSelect, NativeSelect, Radio, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { fromLocalInput, timeZoneLabel, toLocalInput } from '../../../schedules';
import { type Decl, errorOf, inputProps, useProblems } from './decl';

export interface ControlProps {
  decl: Decl;
  /** The stored shape; undefined when the field has no value. */
  value: unknown;
  /** `fields.hero.title`, `fields.features[2].title`: where the API's problems point. */
  path: string;
  onChange(value: unknown): void;
}

const RADIOS_UP_TO = 5;

/** `select`: a radio group up to 5 options, a select beyond; checkboxes or a multi-select for `multiple`. */
export function SelectControl({ decl, value, path, onChange }: ControlProps) {
  const options = (Array.isArray(decl.options) ? decl.options : []) as Schemas['SelectOption'][];
  const data = options.map((o) => ({ value: o.value, label: o.label ?? o.value }));
  const props = { ...inputProps(decl), error: errorOf(null, useProblems().at(path)) };
  if (decl.multiple === true) {
    const chosen = Array.isArray(value) ? (value as string[]) : [];
    const set = (v: string[]) => onChange(v.length > 0 ? v : undefined);
    if (data.length <= RADIOS_UP_TO) {
      return (
        <Checkbox.Group {...props} value={chosen} onChange={set}>
          <Group mt="xs">
            {data.map((o) => (
              <Checkbox key={o.value} value={o.value} label={o.label} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    }
    return <MultiSelect {...props} data={data} value={chosen} onChange={set} searchable clearable />;
  }
  const chosen = typeof value === 'string' ? value : '';
  if (data.length <= RADIOS_UP_TO) {
    return (
      <Radio.Group {...props} value={chosen} onChange={(v) => onChange(v === '' ? undefined : v)}>
        <Group mt="xs">
          {data.map((o) => (
            <Radio key={o.value} value={o.value} label={o.label} />
          ))}
          {decl.required !== true && <Radio value="" label="None" />}
        </Group>
      </Radio.Group>
    );
  }
  return (
    <NativeSelect
      {...props}
      data={[{ value: '', label: decl.required === true ? 'Choose…' : 'None' }, ...data]}
      value={chosen}
      onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)}
    />
  );
}

/** `date`: the browser's date input, "YYYY-MM-DD" as stored. */
export function DateControl({ decl, value, path, onChange }: ControlProps) {
  return (
    <TextInput
      {...inputProps(decl)}
      type="date"
      error={errorOf(null, useProblems().at(path))}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)}
    />
  );
}

/**
 * `datetime`: picked in the editor's time zone (named under the field) and stored in UTC as RFC 3339
 * with Z (contract §13); a stored offset is shown as the same instant in the editor's zone.
 * The input keeps its own text and hands over each complete date and time. While it is not one (a
 * segment emptied: the browser then reports '' and `badInput`), the value before is kept and the field
 * says so: a controlled input fed the stored value on each key emptied itself as a year was typed over
 * (issue 44). Emptied on purpose (every segment, no `badInput`), the value is removed.
 */
export function DatetimeControl({ decl, value, path, onChange }: ControlProps) {
  const stored = instantOf(value);
  const [text, setText] = useState(() => (stored ? toLocalInput(stored) : ''));
  const [unfinished, setUnfinished] = useState(false);
  // A value from outside (a draft restored, the item moved): shown, unless it is what was typed.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    const shown = stored ? toLocalInput(stored) : '';
    if (shown !== text && !unfinished) setText(shown);
  }
  const read = (input: HTMLInputElement) => {
    setText(input.value);
    const at = fromLocalInput(input.value);
    if (at) {
      setUnfinished(false);
      onChange(at.toISOString().replace('.000Z', 'Z'));
    } else if (input.value === '' && !input.validity.badInput) {
      setUnfinished(false);
      onChange(undefined);
    } else setUnfinished(true);
  };
  const props = inputProps(decl);
  const kept = stored
    ? `${stored.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })} is kept until then`
    : 'the field stays empty until then';
  return (
    <TextInput
      {...props}
      type="datetime-local"
      description={`${props.description} · in ${timeZoneLabel(stored ?? new Date())}`}
      error={errorOf(unfinished ? `Finish the date and time: ${kept}` : null, useProblems().at(path))}
      value={text}
      onChange={(e) => read(e.currentTarget)}
      // Segments emptied one by one report '' once: whether all of them are is known on leaving.
      onBlur={(e) => {
        if (unfinished) read(e.currentTarget);
      }}
    />
  );
}

/** A stored datetime's instant, or null. */
const instantOf = (value: unknown): Date | null =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value) : null;

const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** The picker takes #rrggbb only: #rgb is widened, an alpha dropped (the text keeps it). */
const forPicker = (c: string) =>
  c.length === 4 ? `#${[...c.slice(1)].map((x) => x + x).join('')}` : c.slice(0, 7);

/**
 * `color`: the browser's colour picker beside a text input ("#rgb", "#rrggbb", "#rrggbbaa"). Text that
 * is not a colour is never handed over: the field keeps the last colour it held and says which, until
 * the text is one. (Emptied, then "sea blue" typed: the colour was removed, the message showed, and
 * Save said "draft saved" without it, issue 44.) Emptied on purpose, the value is removed.
 */
export function ColorControl({ decl, value, path, onChange }: ControlProps) {
  const [text, setText] = useState(typeof value === 'string' ? value : '');
  const [kept, setKept] = useState(typeof value === 'string' && COLOR.test(value) ? value : null);
  const valid = text.trim() === '' || COLOR.test(text.trim());
  const props = inputProps(decl);
  // The text as typed (a space trimmed on each key was lost before the next word); the colour trimmed.
  const typed = (raw: string) => {
    setText(raw);
    const t = raw.trim();
    if (COLOR.test(t)) {
      setKept(t);
      onChange(t);
    } else if (t === '') onChange(undefined);
    else if (kept !== null) onChange(kept);
  };
  const keeps =
    kept !== null
      ? `${kept} is kept until then`
      : value === undefined
        ? 'the field stays empty until then'
        : 'its value is kept until then';
  return (
    <Input.Wrapper
      {...props}
      error={errorOf(valid ? null : `Enter a colour such as #1a2b3c (${keeps})`, useProblems().at(path))}
    >
      <Stack gap={4} mt={4}>
        <Group gap="xs" wrap="nowrap">
          <input
            type="color"
            className="folio-color-swatch"
            aria-label={`${props.label}: picker`}
            // The colour the field holds: the one typed, else the one kept (none once emptied).
            value={forPicker(
              COLOR.test(text.trim()) ? text.trim() : text.trim() !== '' && kept ? kept : '#000000',
            )}
            onChange={(e) => typed(e.currentTarget.value)}
          />
          <TextInput
            aria-label={`${props.label}: hex value`}
            placeholder="#1a2b3c"
            value={text}
            onChange={(e) => typed(e.currentTarget.value)}
            classNames={{ input: 'folio-mono' }}
            w={160}
          />
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
