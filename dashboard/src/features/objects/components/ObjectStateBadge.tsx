import { Badge } from '@mantine/core';
import type { ObjectState } from '../api/objects.api';

const LOOK: Record<ObjectState, { color: string; label: string }> = {
  published: { color: 'green', label: 'published' },
  changed: { color: 'yellow', label: 'draft differs from published' },
  unpublished: { color: 'gray', label: 'never published' },
};

export function ObjectStateBadge({ state }: { state: ObjectState }) {
  const { color, label } = LOOK[state];
  return (
    <Badge color={color} variant="light" c="dark" tt="none">
      {label}
    </Badge>
  );
}
