import { useEffect, useMemo, useState } from 'react';
import { own } from '../../../lib/own';
import type { RuleProblem } from '../api/entry-mutations';
import { sameValue } from '../lib/fields';
import { type Problems, problemsOf } from './structured/decl';

/** A problem's top-level field: `fields.features[2].title` → `features`. */
const fieldOfPath = (path: string) => /^fields\.([^.[]+)/.exec(path)?.[1] ?? null;

interface Source {
  problems: RuleProblem[];
  /** The field values the problems were found in. */
  basis: Record<string, unknown>;
}

/**
 * The rule problems an entry's form shows (contract §17): the API's `problems` of the stored copy, or
 * those of a refused publish (422, of this entry or of its page). A problem is shown while its field
 * still holds the value it was found in: an edit hides it until the next answer says again. Each
 * field's value is compared once per render, however many problems it has (a list of 200 items).
 */
export function useRuleProblems(
  stored: {
    fields: Record<string, unknown>;
    problems?: (RuleProblem & { locale?: string | null })[] | undefined;
    locale?: string | null | undefined;
  },
  working: Record<string, unknown>,
  pageRefusal: RuleProblem[] | undefined,
) {
  const [refused, setRefused] = useState<Source | null>(null);
  // A page publish refused for this entry: the stored copy is what it found the problems in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new refusal, not a new copy, shows them
  useEffect(() => {
    if (pageRefusal) setRefused({ problems: pageRefusal, basis: stored.fields });
  }, [pageRefusal]);

  // The API lists the problems of every locale (contract §13); the form shows the fields of one, so it
  // shows that locale's (the values they were found in are the ones on screen).
  const inLocale = (stored.problems ?? []).filter(
    (p) => p.locale == null || stored.locale == null || p.locale === stored.locale,
  );
  const source = refused ?? { problems: inLocale, basis: stored.fields };
  const unchanged = new Map<string, boolean>();
  const shown = source.problems.filter((p) => {
    const key = fieldOfPath(p.path);
    if (key === null) return true;
    if (!unchanged.has(key)) unchanged.set(key, sameValue(own(working, key), own(source.basis, key)));
    return unchanged.get(key);
  });
  const shownKey = JSON.stringify(shown);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the list changes only when its JSON does
  const problems: Problems = useMemo(() => problemsOf(shown), [shownKey]);
  return {
    problems,
    count: shown.length,
    /** A publish of these values was refused with these problems. */
    refuse: (list: RuleProblem[], basis: Record<string, unknown>) => setRefused({ problems: list, basis }),
    /** Saved: the API's answer carries the problems from now on. */
    clear: () => setRefused(null),
  };
}
