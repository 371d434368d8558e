import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { access } from '../../http/access.js';
import { projectIdOf, seesWorkingCopies } from '../../http/auth.js';
import { errors } from '../../http/schemas.js';
import { rateLimited } from '../../shared/errors.js';
import { type Locales, requestedLocale } from '../../shared/locales.js';
import {
  type LiveHub,
  type LiveSink,
  RETRY_AFTER_SECONDS,
  TOO_MANY_CLIENT_STREAMS,
  TOO_MANY_STREAMS,
} from './live.hub.js';
import { LiveQuery, LiveStream } from './live.schemas.js';

const tags = ['Live'];

/** How long a clean end may take (a reader that stopped reading) before its connection is cut. */
const END_GRACE_MS = 1000;

/**
 * The response as a LiveSink. The stream goes through Fastify (reply.send of a PassThrough), not a
 * hijacked socket, so CORS, the request id and the access log apply as on every route.
 */
function sinkFor(reply: FastifyReply, body: PassThrough): LiveSink {
  const res = reply.raw;
  const finished = new Promise<void>((resolve) => res.once('close', resolve));
  return {
    write: (chunk) => {
      if (!body.destroyed) body.write(chunk);
    },
    // Everything not yet handed to the socket: the PassThrough's buffers and the response's.
    bufferedBytes: () => body.readableLength + body.writableLength + res.writableLength,
    async end() {
      body.end();
      const timer = setTimeout(() => res.destroy(), END_GRACE_MS);
      await finished;
      clearTimeout(timer);
    },
    destroy: () => res.destroy(),
  };
}

export const liveRoutes =
  (
    live: LiveHub,
    limits: {
      maxStreamsPerProject: number;
      maxStreamsPerClient: number;
      heartbeatMs: number;
      maxBufferBytes: number;
    },
    /** The project's locales (the projects' site cache), to check `?locale=`. */
    localesOf: (projectId: string) => Promise<Locales | null> = async () => null,
  ): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/',
      {
        config: { access: access.live },
        schema: {
          tags,
          operationId: 'streamPageChanges',
          summary: 'Live updates of a page (Server-Sent Events)',
          description: `Opens a \`text/event-stream\` for one page, with the project's \`x-cms-key\` and, to follow drafts, a preview token (\`x-cms-preview\`). The stream first sends one \`event: entry\` per entry the caller sees now, then, each time that changes, \`event: entry\` with \`data:\` the entry exactly as \`GET /v1/content/:pageId\` would now show it to this caller — visitors: on publish and unpublish; preview: on every change of the working copy too. \`event: deleted\` with \`data: { "id" }\` when an entry is deleted or the caller can no longer see it (a visitor after an unpublish). A \`:\` comment line is sent every ${limits.heartbeatMs / 1000} s (CMS_LIVE_HEARTBEAT_MS). A change made through any instance reaches streams on every instance within a second (LISTEN/NOTIFY on PostgreSQL). References are resolved as on \`GET /v1/content/:pageId\` (visitors and preview tokens; \`?depth=\` 0-3, default 1; a member's session gets stored ids), and a publish, unpublish or deletion of a referenced entry (a draft save, for preview streams) sends the entries that refer to it again.

Languages (contract §14): \`?locale=\` and \`?fallback=false\` as on \`GET /v1/content/:pageId\`, each stream sending entries as that read shows them (400 at \`query.locale\` before the stream opens for a code the project lacks or any locale without locales). A publish or unpublish in a locale reaches the visitor streams of the locales whose fallback chain passes through it, and no other.

Browsers: \`EventSource\` cannot send headers, and credentials never go in query strings, so open the stream with \`fetch\` and read the body (the SDK does this). CORS as for content.

Limits, each counted per server (an instance behind the load balancer; the API reference says how to size them behind N instances): one client address holds at most ${limits.maxStreamsPerClient} open streams of a project (CMS_LIVE_STREAMS_PER_CLIENT), then 429 \`rate_limited\` with \`Retry-After\` while other clients still get theirs; a project has at most ${limits.maxStreamsPerProject} (CMS_LIVE_MAX_STREAMS_PER_PROJECT), then 429 for everyone, the last guard. The client address is the one the login limiter sees: behind a proxy, set CMS_TRUST_PROXY, or every visitor shares the proxy's address and its cap. A reader that falls more than ${limits.maxBufferBytes} bytes behind (CMS_LIVE_MAX_BUFFER_BYTES) is disconnected rather than buffered; on reconnecting it receives the current state first, so nothing is lost. Streams end cleanly when the server shuts down, and a preview stream when its token expires or is ended (its creator's access changed, the key was rotated, DELETE /v1/preview-tokens): reconnect (with a new token).`,
          querystring: LiveQuery,
          response: {
            200: LiveStream,
            ...errors(
              400,
              401,
              403,
              rateLimited(RETRY_AFTER_SECONDS, TOO_MANY_CLIENT_STREAMS),
              rateLimited(RETRY_AFTER_SECONDS, TOO_MANY_STREAMS),
            ),
          },
        },
      },
      async (request, reply) => {
        const drafts = seesWorkingCopies(request.auth);
        // Visitors and preview tokens read resolved references; a member's session the stored ids (§17).
        const view = !drafts ? 'visitor' : request.auth.session === null ? 'preview' : 'editor';
        const projectId = projectIdOf(request);
        const { locale: asked, fallback } = request.query;
        // 400 before the stream opens: a code the project lacks, or any locale without locales (§14).
        const locale =
          asked === undefined
            ? undefined
            : (requestedLocale(await localesOf(projectId), asked, 'query.locale') ?? undefined);
        const body = new PassThrough();
        body.on('error', () => {}); // a write racing the client's disconnect; the close below cleans up
        const { preview } = request.auth;
        const close = live.open(
          projectId,
          request.query.pageId,
          {
            drafts,
            view,
            client: request.ip,
            ...(preview && { preview }),
            ...(request.query.depth !== undefined && { depth: request.query.depth }),
            ...(locale !== undefined && { locale }),
            ...(fallback === false && { fallback }),
          },
          sinkFor(reply, body),
        );
        body.once('close', close); // the client went away (Fastify destroys the body then)
        // Headers go out with the first bytes: send a comment now so the client sees the stream open.
        body.write(': stream open\n\n');
        // Typed loosely: the 200 schema documents the event text, and the body is a stream of it.
        return (reply as FastifyReply)
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', drafts ? 'private, no-store' : 'no-cache')
          .header('x-accel-buffering', 'no') // proxies such as nginx must not buffer the stream
          .header('connection', 'close') // when the stream ends, so does the connection (shutdown)
          .send(body);
      },
    );
  };
