import { memo } from 'react';
import { PartBoundary } from '../../../components/PartBoundary';
import type { Site } from '../api/entries.api';
import type { FieldType, FormValue } from '../lib/fields';
import { FieldControl } from './FieldControl';
import { MisfitField } from './MisfitField';
import type { Decl } from './structured/decl';

/**
 * One declared field of the form, memoised: typing in a list of 200 items re-renders that field's
 * control, not every other field of the entry (a blocks field of 30 sections beside it). Its place for
 * visual editing is marked on a wrapper without a box (lib/places.ts). A stored value the control
 * cannot show is a MisfitField instead; a control that fails anyway shows its error in its place
 * (PartBoundary), with the same way out: clearing the value.
 */
export const FieldRow = memo(function FieldRow({
  decl,
  site,
  value,
  error,
  misfit,
  onField,
}: {
  decl: Decl & { type: FieldType };
  site: Site;
  value: FormValue;
  error: string | null;
  misfit: { message: string; stored: unknown } | null;
  onField(key: string, type: FieldType, value: FormValue): void;
}) {
  const clear = () => onField(decl.key, decl.type, '');
  const label = typeof decl.label === 'string' && decl.label ? decl.label : decl.key;
  return (
    <div className="folio-field" data-folio-field={decl.key}>
      {misfit ? (
        <MisfitField decl={decl} value={misfit.stored} message={misfit.message} onClear={clear} />
      ) : (
        <PartBoundary
          title={`${label} could not be shown`}
          rest="The other fields can still be edited; clearing this one removes its value when you save."
          recover={{ label: `Clear ${label}`, run: clear }}
        >
          <FieldControl
            fieldKey={decl.key}
            type={decl.type}
            declaration={decl}
            site={site}
            projectId={site.projectId}
            value={value}
            error={error}
            onChange={(v) => onField(decl.key, decl.type, v)}
          />
        </PartBoundary>
      )}
    </div>
  );
});
