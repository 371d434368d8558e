import { Button, Group, Input, JsonInput, Loader, NumberInput, Switch, TextInput } from '@mantine/core';
import { lazy, Suspense, useId, useState } from 'react';
import { type FieldType, type FormValue, jsonRows } from '../lib/fields';

// Loaded on demand: the first screen of the dashboard does not carry an editor it may never show.
const RichTextEditor = lazy(() => import('./RichTextEditor'));
const MediaPicker = lazy(() => import('./MediaPicker'));

interface Props {
  fieldKey: string;
  type: FieldType;
  value: FormValue;
  error: string | null;
  projectId: string;
  onChange(value: FormValue): void;
}

/** One declared field, labelled with its key; its type in the description. */
export function FieldControl({ fieldKey, type, value, error, projectId, onChange }: Props) {
  const labelId = useId();
  const [picking, setPicking] = useState(false);
  const common = { label: fieldKey, description: type, error };

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
          label={fieldKey}
          description={type}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
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
        <Input.Wrapper
          label={fieldKey}
          description={type}
          error={error}
          labelElement="div"
          labelProps={{ id: labelId }}
        >
          <Suspense fallback={<Loader size="sm" aria-label="Loading the editor" />}>
            <RichTextEditor value={value} labelId={labelId} onChange={(v) => onChange(v as FormValue)} />
          </Suspense>
        </Input.Wrapper>
      );
    case 'image':
      return (
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            {...common}
            description="image: a URL or a media id"
            value={String(value)}
            onChange={(e) => onChange(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button
            variant="default"
            onClick={() => setPicking(true)}
            aria-label={`Choose an image for ${fieldKey}`}
          >
            Choose…
          </Button>
          {picking && (
            <Suspense fallback={null}>
              <MediaPicker
                projectId={projectId}
                opened={picking}
                onClose={() => setPicking(false)}
                onPick={(url) => {
                  onChange(url);
                  setPicking(false);
                }}
              />
            </Suspense>
          )}
        </Group>
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
      return (
        <TextInput {...common} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)} />
      );
  }
}
