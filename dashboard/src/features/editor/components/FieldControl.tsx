import { Input, JsonInput, Loader, NumberInput, Switch, Textarea, TextInput } from '@mantine/core';
import { lazy, Suspense, useId } from 'react';
import type { Site } from '../api/entries.api';
import { type FieldType, type FormValue, isWireValued, jsonRows } from '../lib/fields';
import { ImageControl } from './ImageControl';
import { type Decl, inputProps } from './structured/decl';

// Loaded on demand: the first screen of the dashboard does not carry an editor it may never show.
const RichTextEditor = lazy(() => import('./RichTextEditor'));
// select … blocks: their controls (and the nested forms of objects, lists and blocks) are one chunk.
const StructuredField = lazy(() => import('./structured/StructuredField'));

interface Props {
  fieldKey: string;
  type: FieldType;
  value: FormValue;
  error: string | null;
  projectId: string;
  /** The whole declaration: label, help, required marker, options, nested fields. */
  declaration?: Decl;
  site?: Site;
  onChange(value: FormValue): void;
  /** Focus left the control (a field inside a container hands its pending value over then). */
  onBlur?(): void;
}

/** One declared field, labelled with its label (else its key); its help (else its type) in the description. */
export function FieldControl({
  fieldKey,
  type,
  value,
  error,
  projectId,
  declaration,
  site,
  onChange,
  onBlur,
}: Props) {
  const labelId = useId();
  const decl: Decl = declaration ?? { key: fieldKey, type };
  const common = { ...inputProps(decl), error, onBlur };

  if (isWireValued(type) && site) {
    return (
      <Suspense fallback={<Loader size="sm" aria-label={`Loading ${common.label}`} />}>
        <StructuredField
          decl={decl}
          value={value === '' ? undefined : value}
          path={`fields.${fieldKey}`}
          site={site}
          depth={0}
          onChange={(v) => onChange((v ?? '') as FormValue)}
        />
      </Suspense>
    );
  }

  switch (type) {
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : ''}
          onChange={(v) => onChange(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
        />
      );
    case 'boolean':
      return (
        <Switch
          label={common.label}
          description={common.description}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
          onBlur={onBlur}
        />
      );
    case 'json':
      return (
        <JsonInput
          {...common}
          value={String(value)}
          onChange={onChange}
          rows={jsonRows(String(value), 3, 16)}
          // Mantine checks JSON again on blur and, without this, replaced our message with none: the
          // field lost its line of text and the button under the pointer moved away before the click.
          validationError="Not valid JSON"
          spellCheck={false}
          ff="monospace"
        />
      );
    case 'richtext':
      return (
        <Input.Wrapper {...common} labelElement="div" labelProps={{ id: labelId }}>
          <Suspense fallback={<Loader size="sm" aria-label="Loading the editor" />}>
            <RichTextEditor value={value} labelId={labelId} onChange={(v) => onChange(v as FormValue)} />
          </Suspense>
        </Input.Wrapper>
      );
    case 'image':
      return (
        <ImageControl
          common={common}
          help={decl.help}
          projectId={projectId}
          value={value}
          onChange={onChange}
        />
      );
    case 'url':
      return (
        <TextInput
          {...common}
          inputMode="url"
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    default:
      return decl.multiline === true ? (
        <Textarea
          {...common}
          rows={jsonRows(String(value), 3, 12)}
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      ) : (
        <TextInput {...common} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)} />
      );
  }
}
