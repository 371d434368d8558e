import { Anchor, Breadcrumbs, NavLink, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { formatTime } from '../../../lib/format';
import { stateOf, useObjects } from '../api/objects.api';
import { ObjectDetails } from '../components/ObjectDetails';
import { ObjectStateBadge } from '../components/ObjectStateBadge';

/**
 * Objects, the structured data a site's build or server saves (products, authors…): its types, the
 * objects of a type, and one object's fields and collections, draft beside published.
 * `/objects`, `/objects/:type` and `/objects/:type/:objectId` are this one screen.
 */
export function ObjectsRoute() {
  const params = useParams();
  const projectId = params.projectId!;
  const type = params.type;
  const objectId = params.objectId;
  const all = useObjects(projectId, 'draft');
  const published = useObjects(projectId, 'published', type);
  const base = `/p/${projectId}/objects`;

  if (!all.data) {
    return (
      <Stack>
        <Title order={1}>Objects</Title>
        <QueryState query={all} what="the objects" />
      </Stack>
    );
  }
  const counts = new Map<string, number>();
  for (const o of all.data) counts.set(o.type, (counts.get(o.type) ?? 0) + 1);
  const ofType = type ? all.data.filter((o) => o.type === type) : [];
  const selected = objectId ? ofType.find((o) => o.id === objectId) : undefined;
  const publishedOf = (id: string) => published.data?.find((o) => o.id === id && o.type === type);

  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} to={base}>
          Objects
        </Anchor>
        {type && (
          <Anchor component={Link} to={`${base}/${encodeURIComponent(type)}`} ff="monospace">
            {type}
          </Anchor>
        )}
        {objectId && <Text ff="monospace">{objectId}</Text>}
      </Breadcrumbs>
      <Title order={1}>Objects</Title>
      {counts.size === 0 ? (
        <Text>
          No objects yet. A site's build or server saves them (POST /v1/objects/save with a write API key, or
          the SDK's objects.save); they appear here by type.
        </Text>
      ) : (
        <div className="folio-split">
          <nav aria-label="Object types">
            <Text size="sm" fw={600} mb={4}>
              Types
            </Text>
            {[...counts].map(([name, count]) => (
              <NavLink
                key={name}
                component={Link}
                to={`${base}/${encodeURIComponent(name)}`}
                label={name}
                description={`${count} ${count === 1 ? 'object' : 'objects'}`}
                active={name === type}
                aria-current={name === type ? 'page' : undefined}
              />
            ))}
          </nav>
          <Stack>
            {!type ? (
              <Text>Choose a type to see its objects.</Text>
            ) : ofType.length === 0 ? (
              <Text>No objects of type “{type}”.</Text>
            ) : objectId ? (
              !selected ? (
                <Text role="alert">
                  No object “{objectId}” of type “{type}”: it may have been deleted.
                </Text>
              ) : !published.data ? (
                <QueryState query={published} what="the published copy" />
              ) : (
                <ObjectDetails projectId={projectId} draft={selected} published={publishedOf(selected.id)} />
              )
            ) : (
              <Table striped highlightOnHover aria-label={`Objects of type ${type}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Id</Table.Th>
                    <Table.Th>Fields</Table.Th>
                    <Table.Th>Collections</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Last saved</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {ofType.map((o) => (
                    <Table.Tr key={o.id}>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`${base}/${encodeURIComponent(o.type)}/${encodeURIComponent(o.id)}`}
                          ff="monospace"
                        >
                          {o.id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{Object.keys(o.fields).length}</Table.Td>
                      <Table.Td>{Object.keys(o.collections).join(', ') || '—'}</Table.Td>
                      <Table.Td>
                        {published.data ? <ObjectStateBadge state={stateOf(o, publishedOf(o.id))} /> : '…'}
                      </Table.Td>
                      <Table.Td>{formatTime(o.updatedAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        </div>
      )}
    </Stack>
  );
}
