import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFound() {
  return (
    <Stack>
      <Title order={1}>Not found</Title>
      <Text>Nothing lives at this address.</Text>
      <Anchor component={Link} to="/">
        Back to your projects
      </Anchor>
    </Stack>
  );
}
