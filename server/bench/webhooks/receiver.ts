/** A bare webhook receiver in its own process (so it does not share the worker's event loop). */
import { createServer } from 'node:http';

let count = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    count += 1;
    res.end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1');
process.on('SIGTERM', () => {
  process.stdout.write(`received ${count}\n`);
  process.exit(0);
});
