import '@mantine/dropzone/styles.css';
import { Alert, Image, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { Dropzone, IMAGE_MIME_TYPE } from '@mantine/dropzone';
import { QueryState } from '../../../app/QueryState';
import { messageOf } from '../../../lib/api';
import { useMediaList, useUploadMedia } from '../../media';

/** Pick an image of the project's library, or upload one (it is picked at once). */
export default function MediaPicker({
  projectId,
  opened,
  onClose,
  onPick,
}: {
  projectId: string;
  opened: boolean;
  onClose(): void;
  onPick(url: string): void;
}) {
  const media = useMediaList(projectId, opened);
  const upload = useUploadMedia(projectId);

  return (
    <Modal opened={opened} onClose={onClose} title="Choose an image" size="lg">
      <Stack>
        {upload.isError && (
          <Alert color="red" role="alert" title="Upload failed">
            {messageOf(upload.error)}
          </Alert>
        )}
        <Dropzone
          accept={IMAGE_MIME_TYPE}
          multiple={false}
          loading={upload.isPending}
          onDrop={(files) => {
            const file = files[0];
            if (file) upload.mutate(file, { onSuccess: (record) => onPick(record.url) });
          }}
          aria-label="Upload an image"
          inputProps={{ 'aria-label': 'Image file' }}
        >
          <Text ta="center" py="md">
            Drop an image here, or press to choose a file (PNG, JPEG, GIF, WebP, AVIF)
          </Text>
        </Dropzone>
        {!media.data ? (
          <QueryState query={media} what="the media library" />
        ) : media.data.length === 0 ? (
          <Text c="dimmed">The library is empty: upload the first image.</Text>
        ) : (
          <div className="folio-media-grid">
            {media.data.map((item) => (
              <UnstyledButton
                key={item.id}
                onClick={() => onPick(item.url)}
                aria-label={`Use ${item.filename}`}
              >
                <Image src={`${item.url}?w=160&h=120`} alt="" h={90} fit="cover" radius="sm" />
                <Text size="xs" truncate>
                  {item.filename}
                </Text>
              </UnstyledButton>
            ))}
          </div>
        )}
      </Stack>
    </Modal>
  );
}
