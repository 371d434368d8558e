import type { Schemas } from '@folio/client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, inProject, messageOf } from '../../../lib/api';
import { humanBytes } from '../../../lib/format';
import { uploadWithSession } from '../../../lib/upload';
import { useApi } from '../../auth';
import { mediaKeys } from './media.api';

export interface Upload {
  key: number;
  file: File;
  /** 0 to 1: the share of the body sent. */
  progress: number;
  status: 'queued' | 'uploading' | 'done' | 'failed';
  error?: string;
  /** The failure cannot succeed by sending the same file again (too large, not an image): no Retry. */
  permanent?: boolean;
  media?: Schemas['Media'];
}

/**
 * Whether sending the same file again could succeed: a network failure, a server error, a rate limit
 * or an ended session may pass next time; the API's other 4xx (413 too large, 415 not an image, 400 a
 * broken image) judge the file itself and will answer the same.
 */
const isPermanent = (error: unknown) =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  ![401, 408, 429].includes(error.status);

/** Files sent side by side: enough to keep the line busy, few enough that each bar moves. */
const CONCURRENCY = 3;

/**
 * Uploads of many files, each with its own progress (XMLHttpRequest, src/lib/upload.ts), three at a
 * time; the library is refreshed when the queue drains. A failed file keeps its error and can be sent
 * again. Uploads still running when the screen is left are canceled.
 */
export function useUploadQueue(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const waiting = useRef<Upload[]>([]);
  const running = useRef(0);
  const nextKey = useRef(0);
  const aborts = useRef(new Set<AbortController>());

  useEffect(() => {
    const live = aborts.current;
    return () => {
      for (const controller of live) controller.abort();
    };
  }, []);

  const update = useCallback((key: number, patch: Partial<Upload>) => {
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u)));
  }, []);

  const send = useCallback(
    async (upload: Upload) => {
      update(upload.key, { status: 'uploading', progress: 0, error: undefined });
      const controller = new AbortController();
      aborts.current.add(controller);
      const body = new FormData();
      body.append('file', upload.file);
      try {
        const { data } = await uploadWithSession<Schemas['Media']>(api, {
          url: `${window.location.origin}/v1/media/upload`,
          headers: inProject(projectId),
          body,
          signal: controller.signal,
          onProgress: (progress) => update(upload.key, { progress }),
        });
        update(upload.key, { status: 'done', progress: 1, media: data });
      } catch (error) {
        if (controller.signal.aborted) return;
        update(upload.key, {
          status: 'failed',
          error: humanBytes(messageOf(error)),
          permanent: isPermanent(error),
        });
      } finally {
        aborts.current.delete(controller);
      }
    },
    [api, projectId, update],
  );

  const pump = useCallback(() => {
    while (running.current < CONCURRENCY && waiting.current.length > 0) {
      const upload = waiting.current.shift()!;
      running.current++;
      void send(upload).finally(() => {
        running.current--;
        if (running.current === 0 && waiting.current.length === 0) {
          void queryClient.invalidateQueries({ queryKey: mediaKeys.all(projectId) });
        }
        pump();
      });
    }
  }, [send, queryClient, projectId]);

  const add = useCallback(
    (files: File[]) => {
      const added = files.map(
        (file): Upload => ({ key: nextKey.current++, file, progress: 0, status: 'queued' }),
      );
      setUploads((list) => [...added, ...list]);
      waiting.current.push(...added);
      pump();
    },
    [pump],
  );

  const retry = useCallback(
    (upload: Upload) => {
      update(upload.key, { status: 'queued', progress: 0, error: undefined });
      waiting.current.push(upload);
      pump();
    },
    [pump, update],
  );

  /** Files refused before sending (not an image type the browser recognised): listed as failed. */
  const refuse = useCallback((files: { file: File; reason: string }[]) => {
    const refused = files.map(
      ({ file, reason }): Upload => ({
        key: nextKey.current++,
        file,
        progress: 0,
        status: 'failed',
        error: reason,
        permanent: true,
      }),
    );
    setUploads((list) => [...refused, ...list]);
  }, []);

  const clearFinished = useCallback(() => {
    setUploads((list) => list.filter((u) => u.status === 'queued' || u.status === 'uploading'));
  }, []);

  return { uploads, add, retry, refuse, clearFinished };
}
