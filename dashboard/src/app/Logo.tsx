import { Group, Text } from '@mantine/core';

/** The folded page (a folio) and the name, as on the API reference. */
export function Logo({ onDark = false }: { onDark?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <svg width="22" height="26" viewBox="0 0 26 30" aria-hidden="true">
        <path d="M2 2h16l6 6v20H2z" fill="#e8b04b" />
        <path d="M18 2v6h6" fill="none" stroke="#1f2a44" strokeWidth="2" />
      </svg>
      <Text fw={700} ff="Georgia, 'Times New Roman', serif" size="xl" c={onDark ? 'white' : '#1f2a44'}>
        Folio
      </Text>
    </Group>
  );
}
