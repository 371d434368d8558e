import '@mantine/dropzone/styles.css';
import { Button, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useRef, useState } from 'react';
import { useParams } from 'react-router';
import { QueryState } from '../../../app/QueryState';
import { LoadMore } from '../../../components/LoadMore';
import { type MediaItem, useMediaPages } from '../api/media.api';
import { useUploadQueue } from '../api/upload-queue';
import { MediaDetails } from '../components/MediaDetails';
import { UploadList } from '../components/UploadList';

/**
 * The types Folio accepts (it decides from the bytes, media.routes.ts), so the file chooser offers only
 * these: Mantine's IMAGE_MIME_TYPE also lists SVG, HEIC and AVIF's relatives, which the API refuses
 * after the editor chose them.
 */
export const ACCEPTED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];

/**
 * The media library: drop (or choose) many images at once, each with its progress; thumbnails of the
 * library, newest first, a page at a time; an image opens its details (size, dimensions, URL, Delete).
 */
export function MediaRoute() {
  const projectId = useParams().projectId!;
  const pages = useMediaPages(projectId);
  const queue = useUploadQueue(projectId);
  const openFiles = useRef<() => void>(null);
  const [selected, setSelected] = useState<MediaItem | null>(null);
  const items = pages.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <Stack>
      <Title order={1}>Media</Title>
      <Dropzone
        openRef={openFiles}
        accept={ACCEPTED_IMAGE_TYPES}
        multiple
        activateOnClick={false}
        activateOnKeyboard={false}
        // An <input type=file> rather than showOpenFilePicker: every browser, and the same dialog.
        useFsAccessApi={false}
        // Mantine's inner layer takes no pointer events by default, so a click on the Upload button
        // inside it reached nothing (issue 36); drops still bubble to the zone.
        enablePointerEvents
        inputProps={{ 'aria-label': 'Image files' }}
        onDrop={queue.add}
        onReject={(rejections) =>
          queue.refuse(
            rejections.map((r) => ({
              file: r.file,
              reason: 'Not an image Folio accepts (PNG, JPEG, GIF, WebP or AVIF).',
            })),
          )
        }
        role="region"
        aria-label="Drop images here to upload them"
        p="lg"
      >
        <Group justify="center" gap="md">
          <Text>Drag images here to upload them, as many as you like, or</Text>
          <Button onClick={() => openFiles.current?.()}>Upload</Button>
        </Group>
        <Text size="sm" c="dimmed" ta="center" mt="xs">
          PNG, JPEG, GIF, WebP or AVIF, up to 10 MB each.
        </Text>
      </Dropzone>
      <UploadList uploads={queue.uploads} onRetry={queue.retry} onClear={queue.clearFinished} />

      {!pages.data ? (
        <QueryState query={pages} what="the media library" />
      ) : items.length === 0 ? (
        <Text>The library is empty: upload the first image.</Text>
      ) : (
        <>
          <ul className="folio-library-grid" aria-label="Media library">
            {items.map((item) => (
              <li key={item.id}>
                <UnstyledButton className="folio-thumb" onClick={() => setSelected(item)}>
                  <img src={`${item.url}?w=320&h=240`} alt="" loading="lazy" width={160} height={120} />
                  <Text size="sm" truncate>
                    {item.filename}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {item.width} × {item.height}
                  </Text>
                </UnstyledButton>
              </li>
            ))}
          </ul>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" role="status">
              Showing {items.length} {items.length === 1 ? 'image' : 'images'}
              {pages.hasNextPage ? '; there are more' : ''}.
            </Text>
            <LoadMore pages={pages} />
          </Group>
        </>
      )}
      <MediaDetails projectId={projectId} item={selected} onClose={() => setSelected(null)} />
    </Stack>
  );
}
