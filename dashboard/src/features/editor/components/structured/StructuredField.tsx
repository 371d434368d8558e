import {
  Button,
  Fieldset,
  Group,
  Input,
  JsonInput,
  Loader,
  NumberInput,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { lazy, Suspense, useId, useState } from 'react';
import type { Site } from '../../api/entries.api';
import { jsonRows } from '../../lib/fields';
import {
  ColorControl,
  type ControlProps,
  DateControl,
  DatetimeControl,
  SelectControl,
} from './ChoiceControls';
import { type Decl, errorOf, inputProps, nestedOf, useProblems } from './decl';
import { ItemsControl } from './ItemsControl';
import { LinkControl } from './LinkControl';
import { ReferenceControl } from './ReferenceControl';

const RichTextEditor = lazy(() => import('../RichTextEditor'));
const MediaPicker = lazy(() => import('../MediaPicker'));

export interface FieldProps extends ControlProps {
  site: Site;
  /** Containers above this field (contract §13: 5 at most). */
  depth: number;
}

/**
 * One field of any contract §13 type, editing the stored shape directly (undefined: no value). The
 * editor's top level uses it for the types that have no plain text form (select … blocks); inside an
 * object, a list item or a block every type comes here. Loaded on demand with all its controls.
 */
export default function StructuredField(props: FieldProps) {
  const { decl, value, path, onChange, site } = props;
  switch (decl.type) {
    case 'select':
      return <SelectControl {...props} />;
    case 'date':
      return <DateControl {...props} />;
    case 'datetime':
      return <DatetimeControl {...props} />;
    case 'color':
      return <ColorControl {...props} />;
    case 'link':
      return <LinkControl {...props} projectId={site.projectId} />;
    case 'reference':
      return <ReferenceControl {...props} />;
    case 'object':
      return <ObjectControl {...props} />;
    case 'list':
    case 'blocks':
      return <ItemsControl {...props} />;
    default:
      return <PlainField decl={decl} value={value} path={path} onChange={onChange} site={site} />;
  }
}

/** `object`: its fields as a group. */
function ObjectControl({ decl, value, path, onChange, site, depth }: FieldProps) {
  const current = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<
    string,
    unknown
  >;
  const props = inputProps(decl);
  const problems = useProblems().at(path);
  return (
    <Fieldset legend={`${props.label}${props.withAsterisk ? ' *' : ''}`} className="folio-nested">
      {problems.length > 0 && <Input.Error mb="xs">{problems.join('; ')}</Input.Error>}
      <NestedFields
        fields={nestedOf(decl)}
        value={current}
        path={path}
        site={site}
        depth={depth + 1}
        onChange={(next) => onChange(Object.keys(next).length > 0 ? next : undefined)}
      />
    </Fieldset>
  );
}

/** The declared fields of an object, a list item or a block; a field emptied is removed from it. */
export function NestedFields({
  fields,
  value,
  path,
  site,
  depth,
  onChange,
}: {
  fields: Decl[];
  value: Record<string, unknown>;
  path: string;
  site: Site;
  depth: number;
  onChange(next: Record<string, unknown>): void;
}) {
  return (
    <>
      {fields.map((f) => (
        <StructuredField
          key={f.key}
          decl={f}
          value={value[f.key]}
          path={`${path}.${f.key}`}
          site={site}
          depth={depth}
          onChange={(v) => {
            const next = { ...value };
            if (v === undefined) delete next[f.key];
            else next[f.key] = v;
            onChange(next);
          }}
        />
      ))}
    </>
  );
}

/** text, richtext, number, boolean, image, url and json inside a container: the stored value edited as is. */
function PlainField({ decl, value, path, onChange, site }: Omit<FieldProps, 'depth'>) {
  const labelId = useId();
  const [picking, setPicking] = useState(false);
  const [jsonText, setJsonText] = useState(() => (value === undefined ? '' : JSON.stringify(value, null, 2)));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const found = useProblems().at(path);
  const common = { ...inputProps(decl), error: errorOf(null, found) };
  const text = typeof value === 'string' ? value : '';
  const setText = (v: string) => onChange(v === '' ? undefined : v);
  switch (decl.type) {
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : ''}
          onChange={(v) => onChange(typeof v === 'number' ? v : undefined)}
        />
      );
    case 'boolean':
      return (
        <Switch
          label={common.label}
          description={common.description}
          error={common.error}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'json':
      return (
        <JsonInput
          {...common}
          error={errorOf(jsonError, found)}
          value={jsonText}
          rows={jsonRows(jsonText, 2, 12)}
          ff="monospace"
          onChange={(t) => {
            setJsonText(t);
            if (t.trim() === '') return onChange(undefined);
            try {
              onChange(JSON.parse(t));
              setJsonError(null);
            } catch {
              setJsonError('Not valid JSON');
            }
          }}
        />
      );
    case 'richtext':
      return (
        <Input.Wrapper {...common} labelElement="div" labelProps={{ id: labelId }}>
          <Suspense fallback={<Loader size="sm" aria-label="Loading the editor" />}>
            <RichTextEditor
              value={(value ?? '') as string}
              labelId={labelId}
              onChange={(v) => onChange(v === '' || v === '<p></p>' ? undefined : v)}
            />
          </Suspense>
        </Input.Wrapper>
      );
    case 'image': {
      const url = typeof value === 'string' ? value : ((value as { url?: string } | undefined)?.url ?? '');
      return (
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            {...common}
            value={url}
            onChange={(e) => setText(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button
            variant="default"
            onClick={() => setPicking(true)}
            aria-label={`Choose an image for ${common.label}`}
          >
            Choose…
          </Button>
          {picking && (
            <Suspense fallback={null}>
              <MediaPicker
                projectId={site.projectId}
                opened
                onClose={() => setPicking(false)}
                onPick={(u) => {
                  setText(u);
                  setPicking(false);
                }}
              />
            </Suspense>
          )}
        </Group>
      );
    }
    case 'text':
      return decl.multiline === true ? (
        <Textarea
          {...common}
          autosize={false}
          rows={3}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
      ) : (
        <TextInput {...common} value={text} onChange={(e) => setText(e.currentTarget.value)} />
      );
    default:
      return (
        <TextInput
          {...common}
          inputMode={decl.type === 'url' ? 'url' : undefined}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
      );
  }
}
