import { Fieldset, Input } from '@mantine/core';
import { useState } from 'react';
import { PartBoundary } from '../../../../components/PartBoundary';
import { own } from '../../../../lib/own';
import type { Site } from '../../api/entries.api';
import {
  type FieldType,
  type FormValue,
  isFieldType,
  misfitOf,
  sameValue,
  toForm,
  toWire,
} from '../../lib/fields';
import { FieldControl } from '../FieldControl';
import { MisfitField } from '../MisfitField';
import {
  ColorControl,
  type ControlProps,
  DateControl,
  DatetimeControl,
  SelectControl,
} from './ChoiceControls';
import { type Decl, errorOf, inputProps, labelOf, nestedOf, useProblems } from './decl';
import { ItemsControl } from './ItemsControl';
import { LinkControl } from './LinkControl';
import { useLift } from './lift';
import { ReferenceControl } from './ReferenceControl';

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
  // A stored value its control cannot show (its declaration changed since): the problem, and a way to
  // clear it, in the control's place (the top level checks its own fields first, EntryCard).
  const misfit = isFieldType(decl.type) ? misfitOf(decl.type, decl.multiple === true, value) : null;
  if (misfit)
    return <MisfitField decl={decl} value={value} message={misfit} onClear={() => onChange(undefined)} />;
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
  const set = (key: string, v: unknown) => {
    const next = { ...value };
    if (v === undefined) delete next[key];
    else next[key] = v;
    onChange(next);
  };
  return (
    <>
      {fields.map((f) => (
        // The field's place for visual editing (lib/places.ts); `display: contents`, so no box of its own.
        <div key={f.key} className="folio-field" data-folio-field={f.key}>
          <PartBoundary
            title={`${labelOf(f)} could not be shown`}
            rest="The other fields can still be edited; clearing this one removes its value when you save."
            recover={{ label: `Clear ${labelOf(f)}`, run: () => set(f.key, undefined) }}
          >
            <StructuredField
              decl={f}
              value={own(value, f.key)}
              path={`${path}.${f.key}`}
              site={site}
              depth={depth}
              onChange={(v) => set(f.key, v)}
            />
          </PartBoundary>
        </div>
      ))}
    </>
  );
}

/**
 * text, richtext, number, boolean, image, url and json inside a container: the top level's own controls
 * (FieldControl), with the form value kept here, so text that is not valid yet (an address half typed,
 * JSON not closed) stays in the field with its message while the stored value keeps the last valid one.
 * Valid values are handed to the container a moment later (./lift.ts): a keystroke re-renders this
 * field only, not the entry's form and its lists; blur, unmount and leaving the page hand them over at once.
 */
function PlainField({ decl, value, path, onChange, site }: Omit<FieldProps, 'depth'>) {
  const type = decl.type as FieldType;
  const [form, setForm] = useState<FormValue>(() => toForm(type, value));
  const wire = toWire(type, form);
  const lift = useLift(onChange);
  // The problems at this path are those of the value handed over. While the field holds another (typed
  // less than LIFT_AFTER_MS ago, or not valid yet) they are not shown: "is required" under text just
  // typed is wrong, and its going at the hand-over, on the mousedown of a click on Publish below, moved
  // the button from under the pointer and the click was lost (issue 44).
  const problems = useProblems().at(path);
  const handedOver = wire.ok && sameValue(liftable(wire.value), value);
  return (
    <FieldControl
      fieldKey={decl.key}
      type={type}
      declaration={decl}
      value={form}
      projectId={site.projectId}
      error={errorOf(wire.ok ? null : wire.error, handedOver ? problems : [])}
      onChange={(next) => {
        setForm(next);
        const w = toWire(type, next);
        if (w.ok) lift.push(liftable(w.value));
      }}
      onBlur={lift.flush}
    />
  );
}

/** What a container keeps for a control's wire value: no key at all for an emptied field. */
const liftable = (v: unknown) => (v === null || v === '' || v === '<p></p>' ? undefined : v);
