import { Badge, Group } from '@mantine/core';
import type { Entry } from '../api/entries.api';

/** published: live as it is; draft: live but the working copy differs; missing: never published there. */
export type LocaleState = 'published' | 'draft' | 'missing';
export const localeState = (s: { status: string; publishedAt: string | null }): LocaleState =>
  s.publishedAt === null ? 'missing' : s.status === 'published' ? 'published' : 'draft';

const COLOR = { published: 'green', draft: 'yellow', missing: 'gray' } as const;
const SAYS = {
  published: 'published',
  draft: 'draft (live copy differs)',
  missing: 'missing (never published: visitors read the fallback)',
} as const;

/** An entry's state in every locale of the project, the one being edited marked (contract §14 `locales`). */
export function LocaleStatus({ entry, current }: { entry: Entry; current: string }) {
  const locales = entry.locales;
  if (!locales) return null;
  return (
    <Group gap={4} role="list" aria-label={`${entry.instanceKey} by language`}>
      {Object.entries(locales).map(([code, s]) => {
        const state = localeState(s);
        return (
          <Badge
            key={code}
            role="listitem"
            size="sm"
            tt="none"
            color={COLOR[state]}
            variant={code === current ? 'outline' : 'light'}
            c="dark"
            title={`${code}: ${SAYS[state]}`}
            aria-label={`${code}: ${SAYS[state]}${code === current ? ' (editing)' : ''}`}
          >
            {code} · {state}
          </Badge>
        );
      })}
    </Group>
  );
}
