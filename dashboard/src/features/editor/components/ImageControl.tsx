import { Button, Group, Stack, TextInput } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { type FormValue, imageParts, imageValue } from '../lib/fields';
import type { inputProps } from './structured/decl';

const MediaPicker = lazy(() => import('./MediaPicker'));

interface Props {
  /** The field's label, error, required marker and blur handler, as FieldControl gives every control. */
  common: ReturnType<typeof inputProps> & { error: string | null; onBlur?: (() => void) | undefined };
  help: unknown;
  projectId: string;
  value: FormValue;
  onChange(value: FormValue): void;
}

/**
 * `image`: its address (typed, or chosen from the media library) and its alt text. The value keeps
 * whatever else the stored object holds (`width`, `mediaId`, …): the control edits `url` and `alt` only.
 */
export function ImageControl({ common, help, projectId, value, onChange }: Props) {
  const [picking, setPicking] = useState(false);
  // The shape the value had when the control opened: a bare address goes back to being one when its
  // alt text is taken away again (lib/fields.ts, imageValue).
  const [bare] = useState(() => typeof value === 'string');
  const image = imageParts(value);
  const set = (change: { url?: string; alt?: string }) => onChange(imageValue(value, change, bare));
  return (
    <Stack gap={4}>
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          {...common}
          description={typeof help === 'string' ? help : 'image: a URL or a media id'}
          value={image.url}
          onChange={(e) => set({ url: e.currentTarget.value })}
          style={{ flex: 1 }}
        />
        <Button
          variant="default"
          onClick={() => setPicking(true)}
          aria-label={`Choose an image for ${common.label}`}
        >
          Choose…
        </Button>
        {picking && (
          <Suspense fallback={null}>
            <MediaPicker
              projectId={projectId}
              opened={picking}
              onClose={() => setPicking(false)}
              onPick={(url) => {
                set({ url });
                setPicking(false);
              }}
            />
          </Suspense>
        )}
      </Group>
      <TextInput
        label={`${common.label}: alt text`}
        description="What the image shows, for people who cannot see it (screen readers, a broken image)"
        value={image.alt}
        onChange={(e) => set({ alt: e.currentTarget.value })}
      />
    </Stack>
  );
}
