/**
 * The baseline: a bare node:http server doing the least each scenario needs.
 * - `GET /<name>`: streams `<dir>/<name>` with Content-Type and Content-Length (a static file server).
 * - `POST /upload`: streams the raw body to a file while hashing it (SHA-256), then deletes it.
 * Usage: bare-server.ts <port> <dir> <tmp>.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const [port = '0', dir = '.', tmp = '.'] = process.argv.slice(2);
const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

const server = createServer(async (req, res) => {
  try {
    if (req.method === 'POST' && req.url === '/upload') {
      const hash = createHash('sha256');
      let size = 0;
      const target = join(tmp, `${randomUUID()}.part`);
      const meter = new Transform({
        transform(chunk: Buffer, _e, done) {
          size += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(req, meter, createWriteStream(target));
      await rm(target, { force: true });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ size, sha256: hash.digest('hex') }));
      return;
    }
    const name = (req.url ?? '/').slice(1).split('?')[0] ?? '';
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error('bad name');
    const path = join(dir, name);
    const info = await stat(path);
    res.writeHead(200, {
      'content-type': TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream',
      'content-length': info.size,
    });
    await pipeline(createReadStream(path), res);
  } catch {
    if (!res.headersSent) res.writeHead(404).end();
  }
});
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
