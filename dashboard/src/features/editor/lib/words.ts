import { labelOf } from '../components/structured/decl';

/**
 * What the editor's alerts say, in editors' words (issue 44 item 12): fields by their labels, never their
 * keys, and a refusal titled by what did not happen ("Not published" when a saved draft stays saved).
 */

type Declared = readonly { key: string; label?: unknown }[];

/** A field's label (its key when it has none): what its control shows. */
export const fieldName = (declared: Declared, key: string): string => {
  const decl = declared.find((f) => f.key === key);
  return decl ? labelOf(decl as Parameters<typeof labelOf>[0]) : key;
};

/** "Title, More info": labels in the form's order of the keys given. */
export const namesOf = (declared: Declared, keys: readonly string[]): string =>
  keys.map((k) => fieldName(declared, k)).join(', ');

export type WriteAction = 'save' | 'publish' | 'unpublish';

/**
 * An alert's title: what stopped. A refused publish writes nothing and leaves the saved draft as it
 * was, so "Not saved" (the title every refusal had) told an editor their saved work was lost.
 */
export const notDone = (action: WriteAction): string =>
  action === 'publish' ? 'Publishing stopped' : action === 'unpublish' ? 'Unpublishing stopped' : 'Not saved';

/** The form holds values the API would refuse (a bad number, JSON that does not parse). */
export const fixFirst = (declared: Declared, keys: readonly string[]) =>
  `Fix ${namesOf(declared, keys)} first.`;

/** A 400 at some fields (`details` paths `body.fields.<key>`, or `<key>[2]` inside a list). */
export const refusedFields = (declared: Declared, keys: readonly string[]) =>
  `Folio refused ${namesOf(declared, [...new Set(keys.map((k) => k.replace(/\[.*$/, '')))])}: see below.`;

/**
 * A publish refused by rules (422): nothing was written, so what stays is the saved draft, and the
 * unsaved changes when there are some (only then does Save draft help).
 */
export function notPublished(count: number, unsaved: boolean): string {
  const problems = `Not published: ${count} ${count === 1 ? 'problem' : 'problems'} to fix, shown at the fields.`;
  return unsaved
    ? `${problems} Your changes are not saved yet: Save draft keeps them meanwhile.`
    : `${problems} The saved draft is as it was.`;
}
