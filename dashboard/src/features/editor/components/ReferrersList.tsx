import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { pagePath } from '../../pages';
import type { ReferenceRow, UsedOn } from '../api/references.api';

const copyLabel = (copy: ReferenceRow['copy']) => (copy === 'published' ? 'published' : 'draft');

/**
 * The pages that refer to an entry, each a link to its editor, with the referring entries under it:
 * the entry's name and component and, when known, the field that holds the reference and which copy
 * (published, draft) holds it.
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
              <List.Item key={`${row.id} ${row.copy} ${row.path}`}>
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
                {row.copy !== undefined && `, ${copyLabel(row.copy)}`}
              </List.Item>
            ))}
          </List>
        </List.Item>
      ))}
    </List>
  );
}
