import type { Schemas } from '@folio/client';
import { useCallback, useState } from 'react';

export type Locales = Schemas['Locales'];

/**
 * The language an editor works in on a project's pages, remembered per account and project in
 * localStorage (`folio.pref.<accountId>.locale.<projectId>`), so it holds across reloads, tabs and
 * sign-ins. localStorage, unlike the session's sessionStorage, because a language is a preference,
 * not a secret: it is keyed by account so the next person on a shared browser does not inherit it,
 * and sign-out keeps it (lib/storage.ts `clearAll` spares `folio.pref.`). A remembered code the
 * project no longer has (removed in Settings) reads as the default.
 */
const key = (accountId: string, projectId: string) => `folio.pref.${accountId}.locale.${projectId}`;

function remembered(accountId: string, projectId: string): string | null {
  try {
    return localStorage.getItem(key(accountId, projectId));
  } catch {
    return null;
  }
}

/** The codes of a project's locales, the default first, then in the order Settings lists them. */
export const localeCodes = (locales: Locales | null | undefined): string[] =>
  locales
    ? [locales.default, ...locales.available.map((l) => l.code).filter((c) => c !== locales.default)]
    : [];

/**
 * [the locale to read and write in, choose another]. Undefined in a project without locales: every
 * call is then made without `?locale=`, exactly as before languages existed (the API answers 400 to
 * a locale there).
 */
export function useEditorLocale(
  accountId: string,
  projectId: string,
  locales: Locales | null | undefined,
): [string | undefined, (code: string) => void] {
  const [chosen, setChosen] = useState(() => remembered(accountId, projectId));
  const choose = useCallback(
    (code: string) => {
      setChosen(code);
      try {
        localStorage.setItem(key(accountId, projectId), code);
      } catch {
        // Storage disabled: the choice holds for this screen only.
      }
    },
    [accountId, projectId],
  );
  if (!locales) return [undefined, choose];
  const codes = localeCodes(locales);
  return [chosen && codes.includes(chosen) ? chosen : locales.default, choose];
}

/** The fallback chain of a code: itself, its fallback, …, the default (as the server's chainOf). */
export function chainOf(locales: Locales, code: string): string[] {
  const chain: string[] = [];
  let at: string | undefined = code;
  while (at && !chain.includes(at)) {
    chain.push(at);
    at = locales.available.find((l) => l.code === at)?.fallback;
  }
  return chain;
}
