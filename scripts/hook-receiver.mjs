#!/usr/bin/env node
/**
 * A webhook and deploy hook receiver for trying Folio on one machine (the README's walk-through): it
 * answers every request 204 and prints it (method, path, the Standard Webhooks headers, the body), so
 * deliveries can be watched instead of being retried against hosts that do not exist.
 *
 *   node scripts/hook-receiver.mjs            # http://127.0.0.1:4000
 *   PORT=4100 node scripts/hook-receiver.mjs
 *
 * Folio refuses hook URLs on loopback and private addresses unless it runs with
 * CMS_ALLOW_PRIVATE_HOOK_TARGETS=true (a server must not be made to call its own network).
 */
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 4000);
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const headers = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type']
      .filter((name) => request.headers[name])
      .map((name) => `  ${name}: ${request.headers[name]}`);
    const body = Buffer.concat(chunks).toString('utf8');
    process.stdout.write(
      `${new Date().toISOString()} ${request.method} ${request.url}\n${headers.join('\n')}\n  ${body.slice(0, 2000)}\n\n`,
    );
    response.writeHead(204).end();
  });
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`Receiving hooks on http://127.0.0.1:${port} (Ctrl-C stops)\n`);
});
