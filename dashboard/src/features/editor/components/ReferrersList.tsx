import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { pagePath } from '../../pages';
import type { ReferenceRow, UsedOn } from '../api/references.api';

/** Which copies hold the reference, in words: a draft that dropped it, or one not yet published. */
function copiesLabel(copies: readonly ReferenceRow['copy'][]): string {
  const published = copies.includes('published');
  const working = copies.includes('working');
  if (published && working) return 'published';
  return published ? 'published (the draft no longer refers to it)' : 'in the draft only';
}

/**
 * The pages that refer to an entry, each a link to its editor, with the referring entries under it:
 * the entry's name and component and, when known, the field that holds the reference and which copy
 * (published, or in the draft only) holds it.
 */
export function ReferrersList({ projectId, pages }: { projectId: string; pages: readonly UsedOn[] }) {
  return (
    <List size="sm" spacing={4} listStyleType="none" withPadding={false}>
      {pages.map(({ pageId, rows }) => (
        <List.Item key={pageId}>
          <Anchor component={Link} to={pagePath(projectId, pageId)} ff="monospace" size="sm">
            {pageId}
          </Anchor>
          <List size="sm" withPadding listStyleType="disc">
            {rows.map((row) => (
              <List.Item key={`${row.id} ${row.path ?? ''}`}>
                <Text span size="sm" fw={600}>
                  {row.instanceKey}
                </Text>{' '}
                <Text span size="sm" c="dimmed">
                  ({row.componentId})
                </Text>{' '}
                {row.path !== undefined && (
                  <>
                    at <code>{row.path}</code>
                  </>
                )}
                {row.copies !== undefined && `, ${copiesLabel(row.copies)}`}
              </List.Item>
            ))}
          </List>
        </List.Item>
      ))}
    </List>
  );
}
