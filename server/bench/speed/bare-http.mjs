/**
 * Baseline 1 of bench/speed: a bare node:http server sending precomputed bytes (the page Folio
 * sends, same headers), or 304 when If-None-Match names one of the ETags given. Plain JavaScript run
 * by plain node, as Folio runs from dist/: no TypeScript loader in either start time.
 * Usage: node bare-http.mjs <port> <body-file> <etag>...
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile, ...etags] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const etag = etags[0];

createServer((req, res) => {
  const match = req.headers['if-none-match'];
  if (match && etags.includes(match)) {
    res.writeHead(304, {
      'x-request-id': randomUUID(),
      etag: match,
      'cache-control': 'no-cache',
      vary: 'Origin',
    });
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
}).listen(Number(port), '127.0.0.1');
