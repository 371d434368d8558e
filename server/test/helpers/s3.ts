import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { trackRunning } from './leaks.js';

export interface TestS3 {
  bucket: string;
  /** The CMS_STORAGE / CMS_S3_* variables that point an app at this server. */
  env: Record<string, string>;
  /** A client of the test's own, to look into the bucket behind the app's back. */
  client: S3Client;
  /** Every object write the server received so far, in order (PutObject, CompleteMultipartUpload). */
  writes(): { name: string; key: string }[];
  /** The keys under `prefix`, sorted. */
  keys(prefix: string): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver: the S3 REST API over HTTP, objects in a temp directory) on a
 * random loopback port, with one bucket. Its fixed credentials are S3RVER/S3RVER; it checks signatures.
 */
export async function startS3(bucket = 'folio-media'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'folio-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const written: { name: string; key: string }[] = [];
  server.on('event', (event) => {
    for (const record of event.Records) {
      if (record.eventName.startsWith('ObjectCreated:')) {
        written.push({ name: record.eventName, key: record.s3.object.key });
      }
    }
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const stop = async () => {
    client.destroy();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  };
  const release = trackRunning(`S3 server on port ${port}`, stop);
  return {
    bucket,
    env: {
      CMS_STORAGE: 's3',
      CMS_S3_BUCKET: bucket,
      CMS_S3_ENDPOINT: endpoint,
      CMS_S3_REGION: 'us-east-1',
      CMS_S3_ACCESS_KEY_ID: 'S3RVER',
      CMS_S3_SECRET_ACCESS_KEY: 'S3RVER',
      CMS_S3_FORCE_PATH_STYLE: 'true',
    },
    client,
    writes: () => [...written],
    async keys(prefix) {
      const res = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (res.Contents ?? []).map((item) => item.Key ?? '').sort();
    },
    async stop() {
      await stop();
      release();
    },
  };
}
