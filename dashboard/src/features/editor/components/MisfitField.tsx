import { Button, Fieldset, Group, JsonInput, Text } from '@mantine/core';
import { useId } from 'react';
import { jsonRows } from '../lib/fields';
import { type Decl, inputProps } from './structured/decl';

/**
 * A field whose stored value its declaration no longer accepts (lib/fields.ts misfitOf): in place of
 * its control, which could not show it, the field's problem in plain words, the value as stored
 * (read-only, to copy what is worth keeping) and a button that clears it. Once cleared the field's own
 * control is back, empty, to enter a replacement; saving sends the removal.
 */
export function MisfitField({
  decl,
  value,
  message,
  onClear,
}: {
  decl: Decl;
  value: unknown;
  message: string;
  onClear(): void;
}) {
  const props = inputProps(decl);
  const errorId = useId();
  const text = JSON.stringify(value, null, 2) ?? '';
  return (
    <Fieldset legend={`${props.label}${props.withAsterisk ? ' *' : ''}`} variant="unstyled">
      <Text size="sm" c="red.8" id={errorId} role="alert">
        {message}
      </Text>
      <JsonInput
        label={`${props.label}: stored value`}
        description={`${props.description} · kept as stored until you clear or replace it`}
        value={text}
        readOnly
        rows={jsonRows(text, 2, 8)}
        classNames={{ input: 'folio-mono' }}
        aria-describedby={errorId}
        mt={4}
      />
      <Group mt="xs">
        <Button
          size="compact-sm"
          color="red"
          variant="light"
          aria-label={`Clear ${props.label}`}
          onClick={onClear}
        >
          Clear
        </Button>
      </Group>
    </Fieldset>
  );
}
