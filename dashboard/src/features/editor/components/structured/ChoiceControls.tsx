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
 */
export function DatetimeControl({ decl, value, path, onChange }: ControlProps) {
  const stored = typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value) : null;
  const props = inputProps(decl);
  return (
    <TextInput
      {...props}
      type="datetime-local"
      description={`${props.description} · in ${timeZoneLabel(stored ?? new Date())}`}
      error={errorOf(null, useProblems().at(path))}
      value={stored ? toLocalInput(stored) : ''}
      onChange={(e) => {
        const at = fromLocalInput(e.currentTarget.value);
        onChange(at ? at.toISOString().replace('.000Z', 'Z') : undefined);
      }}
    />
  );
}

const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** The picker takes #rrggbb only: #rgb is widened, an alpha dropped (the text keeps it). */
const forPicker = (c: string) =>
  c.length === 4 ? `#${[...c.slice(1)].map((x) => x + x).join('')}` : c.slice(0, 7);

/** `color`: the browser's colour picker beside a text input ("#rgb", "#rrggbb", "#rrggbbaa"). */
export function ColorControl({ decl, value, path, onChange }: ControlProps) {
  const [text, setText] = useState(typeof value === 'string' ? value : '');
  const valid = text === '' || COLOR.test(text);
  const props = inputProps(decl);
  const typed = (t: string) => {
    setText(t);
    if (t === '') onChange(undefined);
    else if (COLOR.test(t)) onChange(t);
  };
  return (
    <Input.Wrapper
      {...props}
      error={errorOf(valid ? null : 'Enter a colour such as #1a2b3c', useProblems().at(path))}
    >
      <Stack gap={4} mt={4}>
        <Group gap="xs" wrap="nowrap">
          <input
            type="color"
            className="folio-color-swatch"
            aria-label={`${props.label}: picker`}
            value={COLOR.test(text) ? forPicker(text) : '#000000'}
            onChange={(e) => typed(e.currentTarget.value)}
          />
          <TextInput
            aria-label={`${props.label}: hex value`}
            placeholder="#1a2b3c"
            value={text}
            onChange={(e) => typed(e.currentTarget.value.trim())}
            classNames={{ input: 'folio-mono' }}
            w={160}
          />
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
