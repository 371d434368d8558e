import { Badge, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { useChosenEntries } from '../api/search.api';
import { jsonRows } from '../lib/fields';
import { readableText, referenceIds } from '../lib/readable-text';
import type { Decl } from './structured/decl';

/** A stored value as plain text for the read-only source column (rich text without its tags). */
export function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') {
    if (!value.includes('<')) return value;
    // An inert document: nothing in it runs or loads (as history's RichValue reads stored HTML).
    return new DOMParser().parseFromString(value, 'text/html').body.textContent ?? '';
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2);
}

interface Props {
  label: string;
  /** The locale the editor writes in. */
  locale: string;
  /** The project's default locale: a shared value edited in another one changes it there too. */
  defaultLocale?: string | undefined;
  /** The field's declaration: side by side shows the source value as an editor reads it. */
  decl?: Decl | undefined;
  /** The editor changed this field and has not saved it. */
  edited?: boolean;
  localized: boolean;
  /** The locale this field's value was read from when it is not `locale`'s own (`fallbacks`). */
  fallbackFrom: string | undefined;
  /** Side by side: the source locale and this field's value there (read-only, beside the control). */
  source?: { locale: string; value: unknown } | undefined;
  /**
   * Removes this locale's own value (PATCH `null`), so the field reads through the fallback again;
   * offered only where there is one to remove and a fallback to read (not in the default locale).
   */
  onRemoveTranslation?: (() => void) | undefined;
  busy?: boolean;
  children: ReactNode;
}

/**
 * One top-level field in a project with locales: the control, what it holds in this locale (its own
 * value, a value read through the fallback, or one shared by every locale) and, side by side, the
 * source locale's value read-only. A value read through the fallback is shown in the control so the
 * translator sees what visitors see, but it is never sent: the form sends only what was typed
 * (EntryCard's draft holds changed keys only).
 */
export function LocaleField({
  label,
  locale,
  defaultLocale,
  decl,
  edited = false,
  localized,
  fallbackFrom,
  source,
  onRemoveTranslation,
  busy = false,
  children,
}: Props) {
  const note = !localized ? (
    edited && locale !== defaultLocale ? (
      <Text size="xs" c="dark" fw={700}>
        Shared: saving this changes it in every language, not only {locale}.
      </Text>
    ) : (
      <Text size="xs" c="dimmed">
        Shared: the same in every language.
      </Text>
    )
  ) : fallbackFrom ? (
    <Group gap={6}>
      <Badge size="sm" color="yellow" variant="light" c="dark" tt="none">
        from {fallbackFrom}
      </Badge>
      <Text size="xs" c="dark">
        Not translated into {locale} yet: this is the {fallbackFrom} value. Type to translate it.
      </Text>
    </Group>
  ) : onRemoveTranslation ? (
    <Group gap={6}>
      <Button
        size="compact-xs"
        variant="subtle"
        loading={busy}
        aria-label={`Remove the ${locale} translation of ${label}`}
        onClick={onRemoveTranslation}
      >
        Remove translation
      </Button>
      <Text size="xs" c="dimmed">
        (it then reads the value it falls back on)
      </Text>
    </Group>
  ) : null;
  const field = (
    <Stack gap={4} data-fallback={fallbackFrom ?? undefined}>
      {children}
      {note}
    </Stack>
  );
  if (!source) return field;
  return (
    <SourceBeside label={label} localized={localized} source={source} decl={decl}>
      {field}
    </SourceBeside>
  );
}

/** Side by side: the source locale's value, read-only, as an editor reads it (references by their entry). */
function SourceBeside({
  label,
  localized,
  source,
  decl,
  children,
}: {
  label: string;
  localized: boolean;
  source: { locale: string; value: unknown };
  decl: Decl | undefined;
  children: ReactNode;
}) {
  const projectId = useParams().projectId ?? '';
  const chosen = useChosenEntries(projectId, [...referenceIds(source.value, decl, new Set())].slice(0, 100));
  const names = new Map(
    (chosen.data ?? []).map((e) => [e.id, `${e.title ?? e.instanceKey} (${e.componentId} on ${e.pageId})`]),
  );
  const text = decl ? readableText(source.value, decl, (id) => names.get(id)) : plainText(source.value);
  return (
    <div className="folio-side-by-side">
      <Textarea
        label={`${label} (${source.locale})`}
        description={localized ? `In ${source.locale}, read-only` : 'Shared, read-only'}
        value={text}
        placeholder="(empty)"
        readOnly
        rows={jsonRows(text, 1, 12)}
        variant="filled"
      />
      {children}
    </div>
  );
}
