import { Button, Group, NativeSelect } from '@mantine/core';
import { type Locales, localeCodes } from '../lib/locale-choice';

interface Props {
  locales: Locales;
  locale: string;
  onLocale(code: string): void;
  /** The read-only locale shown beside the forms, or null when side by side is off. */
  source: string | null;
  onSource(code: string | null): void;
}

const nameOf = (locales: Locales, code: string) =>
  code === locales.default
    ? `${code} (default)`
    : `${code} (falls back to ${locales.available.find((l) => l.code === code)?.fallback ?? locales.default})`;

/**
 * The page editor's language: which locale the forms read and write (remembered per editor and
 * project, lib/locale-choice.ts), and side by side: another locale's values read-only beside each field.
 * Native selects: keyboard and screen readers work as everywhere, and nothing is injected (the CSP).
 */
export function LocaleBar({ locales, locale, onLocale, source, onSource }: Props) {
  const codes = localeCodes(locales);
  const others = codes.filter((c) => c !== locale);
  // What a translator compares with first: the locale this one falls back on.
  const firstSource =
    locales.available.find((l) => l.code === locale)?.fallback ?? others[0] ?? locales.default;
  return (
    <Group align="end" gap="sm" role="group" aria-label="Language and side by side">
      <NativeSelect
        label="Language"
        description="The forms show and save this language"
        value={locale}
        onChange={(e) => onLocale(e.currentTarget.value)}
        data={codes.map((c) => ({ value: c, label: nameOf(locales, c) }))}
      />
      <Button
        variant={source ? 'light' : 'default'}
        aria-pressed={source !== null}
        disabled={others.length === 0}
        onClick={() => onSource(source ? null : firstSource)}
      >
        Side by side
      </Button>
      {source && (
        <NativeSelect
          label="Compare with"
          description="Shown read-only beside each field"
          value={source}
          onChange={(e) => onSource(e.currentTarget.value)}
          data={others.map((c) => ({ value: c, label: c }))}
        />
      )}
    </Group>
  );
}
