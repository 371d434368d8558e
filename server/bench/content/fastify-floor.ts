/**
 * The framework's floor: a bare Fastify route sending the same bytes (or 304) with no hooks, auth,
 * validation or database. Between it and Folio is Folio's own cost; between it and node:http is
 * Fastify's. Usage: node fastify-floor.ts <port> <body-file> <etag>
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, bodyFile, etag] = process.argv.slice(2) as [string, string, string];
const body = readFileSync(bodyFile);
const app = Fastify({ genReqId: () => randomUUID() });
app.get('/*', async (request, reply) => {
  reply
    .header('x-request-id', request.id)
    .header('etag', etag)
    .header('cache-control', 'no-cache')
    .header('vary', 'Origin');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
