import { type FieldProblem, validationFailed } from './errors.js';

/**
 * A project's languages (contract §14): `null` is one language, everything as before. Codes are BCP 47
 * tags in canonical case; `default` is among them and has no `fallback`; every other code's chain of
 * fallbacks ends at `default`.
 */
export interface Locales {
  default: string;
  available: { code: string; fallback?: string }[];
}

/** How many locales a project may have (§14). */
export const MAX_LOCALES = 50;

/**
 * The canonical form of a language tag (`fr-ca` → `fr-CA`, as `Intl.getCanonicalLocales` gives it), or
 * null when it is not a well-formed BCP 47 tag. Matching is case-insensitive through this (§17).
 */
export function canonicalLocale(tag: string): string | null {
  if (tag.length === 0 || tag.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null; // RangeError: not a structurally valid tag
  }
}

/**
 * Checks a `locales` setting as sent and gives it back canonical (codes canonicalised, `fallback` absent
 * on the default), or the problems with their paths under `at` (e.g. `body.locales`).
 */
export function checkLocales(
  input: { default: string; available: { code: string; fallback?: string | null }[] },
  at: string,
): { locales: Locales } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const available: Locales['available'] = [];
  const seen = new Set<string>();
  if (input.available.length === 0 || input.available.length > MAX_LOCALES) {
    problems.push({ path: `${at}.available`, message: `must list 1 to ${MAX_LOCALES} locales` });
  }
  input.available.forEach((entry, i) => {
    const code = canonicalLocale(entry.code);
    if (!code) {
      problems.push({
        path: `${at}.available[${i}].code`,
        message: 'must be a BCP 47 language tag, e.g. "fr-CA"',
      });
      return;
    }
    if (seen.has(code)) {
      problems.push({ path: `${at}.available[${i}].code`, message: `lists "${code}" twice` });
      return;
    }
    seen.add(code);
    if (entry.fallback === undefined || entry.fallback === null) {
      available.push({ code });
      return;
    }
    const fallback = canonicalLocale(entry.fallback);
    if (!fallback) {
      problems.push({ path: `${at}.available[${i}].fallback`, message: 'must be a BCP 47 language tag' });
      return;
    }
    available.push({ code, fallback });
  });
  const defaultCode = canonicalLocale(input.default);
  if (!defaultCode) {
    problems.push({ path: `${at}.default`, message: 'must be a BCP 47 language tag, e.g. "en"' });
  } else if (problems.length === 0 && !seen.has(defaultCode)) {
    problems.push({ path: `${at}.default`, message: `"${defaultCode}" is not among the available locales` });
  }
  if (problems.length > 0 || !defaultCode) return { problems };

  // Every chain ends at the default, without a cycle: walked from each code, at most one step per locale.
  const fallbackOf = new Map(available.map((l) => [l.code, l.fallback]));
  available.forEach((l, i) => {
    const path = `${at}.available[${i}].fallback`;
    if (l.code === defaultCode) {
      if (l.fallback !== undefined) problems.push({ path, message: 'the default locale has no fallback' });
      return;
    }
    if (l.fallback === undefined) {
      problems.push({
        path,
        message: `is required: every chain of fallbacks ends at the default "${defaultCode}"`,
      });
      return;
    }
    if (!fallbackOf.has(l.fallback)) {
      problems.push({ path, message: `"${l.fallback}" is not among the available locales` });
      return;
    }
    const visited = new Set([l.code]);
    let at2: string | undefined = l.fallback;
    while (at2 !== undefined && at2 !== defaultCode) {
      if (visited.has(at2)) {
        problems.push({
          path,
          message: `the fallbacks of "${l.code}" loop (${[...visited, at2].join(' → ')})`,
        });
        return;
      }
      visited.add(at2);
      at2 = fallbackOf.get(at2);
    }
  });
  return problems.length > 0 ? { problems } : { locales: { default: defaultCode, available } };
}

/** The codes of a project's locales, in the order they were listed. */
export const localeCodes = (locales: Locales): string[] => locales.available.map((l) => l.code);

/** `code`'s chain of fallbacks: `[code, its fallback, …, default]` (a checked setting always ends). */
export function chainOf(locales: Locales, code: string): string[] {
  const chain = [code];
  let at = locales.available.find((l) => l.code === code)?.fallback;
  while (at !== undefined && !chain.includes(at)) {
    chain.push(at);
    at = locales.available.find((l) => l.code === at)?.fallback;
  }
  return chain;
}

/** The locales whose reads change when `code`'s content does: itself and those whose chain passes through it. */
export const readersOf = (locales: Locales, code: string): string[] =>
  localeCodes(locales).filter((c) => chainOf(locales, c).includes(code));

/** The project's code for a `?locale=` / `locale` as sent (matched case-insensitively), or null when it has none such. */
export function matchLocale(locales: Locales, tag: string): string | null {
  const code = canonicalLocale(tag);
  return code !== null && locales.available.some((l) => l.code === code) ? code : null;
}

/** The stored form of a setting (canonical JSON text, `available` in the order given). */
export const localesText = (locales: Locales): string =>
  JSON.stringify({
    default: locales.default,
    available: locales.available.map((l) =>
      l.fallback === undefined ? { code: l.code } : { code: l.code, fallback: l.fallback },
    ),
  });

export const parseLocales = (text: string | null): Locales | null =>
  text === null ? null : (JSON.parse(text) as Locales);

/**
 * The locale a request acts in (contract §14): null in a project without locales (and no `locale`
 * asked); the default when none is asked; else the project's code for it. 400 at `at` for a code the
 * project lacks, or for any `locale` in a project without locales.
 */
export function requestedLocale(
  locales: Locales | null,
  asked: string | undefined,
  at: string,
): string | null {
  if (asked === undefined) return locales?.default ?? null;
  if (locales === null) {
    throw validationFailed('This project has no locales.', [
      { path: at, message: 'this project has no locales: set them in the project settings first' },
    ]);
  }
  const code = matchLocale(locales, asked);
  if (code === null) {
    throw validationFailed(`The project has no locale "${asked}".`, [
      { path: at, message: `must be one of ${localeCodes(locales).join(', ')}` },
    ]);
  }
  return code;
}
