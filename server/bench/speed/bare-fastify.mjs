/**
 * Baseline 2 of bench/speed: a bare Fastify server serialising the page (the parsed object Folio
 * sends, JSON.stringify per request) with the same headers, or 304 when If-None-Match names one of
 * the ETags given. No hooks, auth, validation, logger or database: the framework's own start time,
 * memory and per-request cost. Plain JavaScript, plain node (as bare-http.mjs).
 * Usage: node bare-fastify.mjs <port> <body-file> <etag>...
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, bodyFile, ...etags] = process.argv.slice(2);
const page = JSON.parse(readFileSync(bodyFile, 'utf8'));
const app = Fastify({ genReqId: () => randomUUID() });
app.get('/*', async (request, reply) => {
  const match = request.headers['if-none-match'];
  reply.header('x-request-id', request.id).header('cache-control', 'no-cache').header('vary', 'Origin');
  if (match && etags.includes(match)) return reply.header('etag', match).code(304).send();
  return reply.header('etag', etags[0]).send(page);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
