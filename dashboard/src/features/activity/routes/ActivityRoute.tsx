import { Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { AdminOnly } from '../../../components/AdminOnly';
import { LoadMore } from '../../../components/LoadMore';
import { formatTime } from '../../../lib/format';
import { useMembers } from '../../users';
import { ACTIONS, type Action, actorName, useActivity } from '../api/activity.api';

/** The activity log (admins): who changed what, newest first, filtered by action, target and actor. */
export function ActivityRoute() {
  const projectId = useParams().projectId!;
  return (
    <AdminOnly
      projectId={projectId}
      title="Activity"
      why="The activity log, who changed what and when, is read by admins."
    >
      <Activity projectId={projectId} />
    </AdminOnly>
  );
}

function Activity({ projectId }: { projectId: string }) {
  const members = useMembers(projectId);
  const [action, setAction] = useState<Action | ''>('');
  const [actorId, setActorId] = useState('');
  const [target, setTarget] = useState('');
  const [targetId] = useDebouncedValue(target.trim(), 300);
  const log = useActivity(projectId, {
    ...(action ? { action } : {}),
    ...(actorId ? { actorId } : {}),
    ...(targetId ? { targetId } : {}),
  });
  const records = log.data?.pages.flatMap((p) => p.items) ?? [];
  const withLocale = records.some((r) => r.locale !== undefined);
  const filtered = Boolean(action || actorId || targetId);

  return (
    <Stack>
      <Title order={1}>Activity</Title>
      <Group align="end" component="section" aria-label="Filters">
        <NativeSelect
          label="Action"
          value={action}
          onChange={(e) => setAction(e.currentTarget.value as Action | '')}
          data={[{ value: '', label: 'Any action' }, ...ACTIONS.map((a) => ({ value: a, label: a }))]}
        />
        <NativeSelect
          label="Actor"
          value={actorId}
          onChange={(e) => setActorId(e.currentTarget.value)}
          data={[
            { value: '', label: 'Anyone' },
            ...(members.data ?? []).map((m) => ({ value: m.id, label: m.email })),
          ]}
        />
        <TextInput
          label="Target"
          description="An id, a page path or type/id"
          value={target}
          onChange={(e) => setTarget(e.currentTarget.value)}
          w={280}
        />
        <Button
          variant="subtle"
          disabled={!filtered && !target}
          onClick={() => {
            setAction('');
            setActorId('');
            setTarget('');
          }}
        >
          Clear filters
        </Button>
      </Group>
      {!log.data ? (
        <QueryState query={log} what="the activity log" />
      ) : records.length === 0 ? (
        <Text>{filtered ? 'Nothing matches these filters.' : 'Nothing has happened yet.'}</Text>
      ) : (
        <>
          {/* A Language column once any record on screen was made in one (contract §14). */}
          <Table striped aria-label="Activity" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Target</Table.Th>
                {withLocale && <Table.Th>Language</Table.Th>}
                <Table.Th>What happened</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td miw={150}>{formatTime(r.at)}</Table.Td>
                  <Table.Td>{actorName(r.actor)}</Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace" className="folio-nowrap">
                      {r.action}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {r.target.type}
                    </Text>
                    <Text size="xs" ff="monospace" className="folio-break">
                      {r.target.id}
                    </Text>
                  </Table.Td>
                  {withLocale && (
                    <Table.Td>
                      <Text size="xs" ff="monospace">
                        {r.locale ?? ''}
                      </Text>
                    </Table.Td>
                  )}
                  <Table.Td>{r.summary}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" role="status">
              Showing {records.length} {records.length === 1 ? 'record' : 'records'}
              {log.hasNextPage ? '; older ones remain' : ''}.
            </Text>
            <LoadMore pages={log} />
          </Group>
        </>
      )}
    </Stack>
  );
}
