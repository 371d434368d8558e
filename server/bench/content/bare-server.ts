/**
 * The baseline: a bare node:http server answering every request with the same bytes and headers
 * Folio sends (or 304 when If-None-Match matches), so the ratio measures Folio's own overhead.
 * Usage: node bare-server.ts <port> <body-file> <etag>
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile, etag] = process.argv.slice(2) as [string, string, string];
const body = readFileSync(bodyFile);

// The same bytes as Folio, x-request-id included (the contract puts one on every response).
createServer((req, res) => {
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { 'x-request-id': randomUUID(), etag, 'cache-control': 'no-cache', vary: 'Origin' });
    res.end();
    return;
  }
  res.writeHead(200, {
    'x-request-id': randomUUID(),
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    etag,
    'cache-control': 'no-cache',
    vary: 'Origin',
  });
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
