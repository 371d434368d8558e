/**
 * Field keys are data, never object members (contract §23): a field may be named `constructor`,
 * `toString` or `valueOf`, and `record[key]` or `key in record` on a plain object then finds what
 * every object inherits (a function shown as the field's value, an edit that seemed made). These
 * read own keys only.
 */
export const has = (record: object | null | undefined, key: string): boolean =>
  record != null && Object.hasOwn(record, key);

/** `record[key]` when it is the record's own; undefined otherwise. */
export const own = <T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined =>
  record != null && Object.hasOwn(record, key) ? record[key] : undefined;
