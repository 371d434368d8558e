import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { access } from '../../http/access.js';
import { projectIdOf } from '../../http/auth.js';
import { addVary } from '../../http/cors.js';
import { etagMatches, NotModified } from '../../http/etag.js';
import { Envelope, errors } from '../../http/schemas.js';
import { Snapshot, SnapshotQuery } from './snapshot.schemas.js';
import type { SnapshotService } from './snapshot.service.js';

/**
 * Whether an Accept-Encoding header admits gzip (RFC 9110 §12.5.3): `gzip` or `*` with a q above 0,
 * unless gzip itself is refused with q=0.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const refused = q !== undefined && Number(q.slice(2)) === 0;
    if (coding?.trim() === 'gzip' || coding?.trim() === 'x-gzip') return !refused;
    if (coding?.trim() === '*') star = !refused;
  }
  return star;
}

export const snapshotRoutes =
  (snapshots: SnapshotService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { access: access.siteRead },
        schema: {
          tags: ['Snapshot'],
          operationId: 'getSnapshot',
          summary: 'Published content and objects, for build-time baking',
          description: `Published data only, whoever calls (a session adds nothing here). \`content\` maps each page path to its live entries \`[{ instanceKey, componentId, fields }]\` (published fields, ordered by instanceKey); pages are keyed in code-unit order. \`objectFields\`, \`objectCollections\` and \`objectTypes\` hold published object data (empty arrays when there is none).

Languages (contract §14, §17): in a project with locales, \`?locale=<code>\` is that locale's snapshot: the same shape with \`locale\` added, each entry's \`fields\` as a visitor reading that locale sees them (through its fallback chain: localized values from the first locale of the chain whose published copy holds them, shared values from the first that has a published copy), and an entry live in no locale of the chain left out. Without \`locale\` it is the default locale's, identical to \`?locale=<default>\` (\`locale\` included). \`?locale=*\` answers every locale at once, \`schema: 2\`: \`{ schema, version, generatedAt, bakeEnabled, defaultLocale, locales: { [code]: <that locale's content map> }, objectFields, objectCollections, objectTypes }\`, whose \`version\` is \`sha256:\` + the hex SHA-256 of the RFC 8785 JSON of \`{ defaultLocale, bakeEnabled, versions: { [code]: <that locale's snapshot version> }, objects }\`, \`objects\` being \`sha256:\` + the hex SHA-256 of the RFC 8785 JSON of \`{ objectCollections, objectFields, objectTypes }\`. Each of these has its own \`version\`, \`ETag\` and 304. A code the project lacks, or any \`locale\` in a project without locales (whose snapshot is as before: no \`locale\`), is 400 \`validation_failed\` at \`query.locale\`; codes match case-insensitively.

\`version\` is \`sha256:\` + the hex SHA-256 of the UTF-8 bytes of the RFC 8785 canonical JSON of the snapshot without \`version\` and \`generatedAt\`: the same published data gives the same version on SQLite and PostgreSQL, whatever the order it was written in; any publish, unpublish or \`bakeEnabled\` change gives a new one. \`generatedAt\` is when this snapshot was built (it is kept in memory until the data changes). The response carries \`ETag: "<version>"\` and \`Cache-Control: no-cache\`; \`If-None-Match\` with that ETag answers 304 with no body. The server keeps the snapshot gzip-compressed: a request with \`Accept-Encoding: gzip\` gets those bytes (\`Content-Encoding: gzip\`, \`Vary: Accept-Encoding\`; fetch decompresses them itself), others the same JSON uncompressed; the ETag is the version either way.

Browsers: answers CORS for the project's \`domains\` (any origin while the list is empty).`,
          querystring: SnapshotQuery,
          // Typed as the one-locale document every existing client reads; the `*` document (schema 2)
          // is described above: a union here would make every typed client narrow its plain reads.
          response: { 200: Envelope(Snapshot), 304: NotModified, ...errors(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const built = await snapshots.snapshot(projectIdOf(request), request.query.locale);
        // Typed loosely, as sendCachedJson does: the bytes are the 200 schema already serialised.
        const raw = reply as FastifyReply;
        raw.header('etag', built.etag).header('cache-control', 'no-cache');
        addVary(raw, 'Accept-Encoding');
        if (etagMatches(request.headers['if-none-match'], built.etag)) return raw.code(304).send();
        raw.header('content-type', 'application/json; charset=utf-8');
        // Kept compressed (snapshot.service.ts): sent as kept, or decompressed as it is sent.
        if (acceptsGzip(request.headers['accept-encoding']))
          return raw.header('content-encoding', 'gzip').send(built.gzip);
        return raw.send(Readable.from([built.gzip]).pipe(createGunzip()));
      },
    );
  };
