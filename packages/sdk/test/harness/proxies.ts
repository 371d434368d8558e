import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';

/**
 * Things outside Folio that sit between a site and it, for the failures a site meets on the way:
 * a connection that drops (a TCP proxy whose connections can be cut), an edge that answers 429 or 503
 * itself (a CDN or load balancer), a server that never answers. Folio itself is always the real one.
 */

export interface TcpProxy {
  url: string;
  /** Destroys every open connection, both sides (a network drop). */
  dropAll(): void;
  /** While true, new connections are cut at once (the network is down). */
  blocked: boolean;
  /** Open connections stop carrying bytes without closing (a connection lost without a reset). */
  freezeAll(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  const proxy = { blocked: false };
  const server = createServer((client) => {
    if (proxy.blocked) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    // One side gone: so is the other (a pipe alone would leave it half-open).
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${address.port}`,
    dropAll() {
      for (const socket of open) socket.destroy();
    },
    freezeAll() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
      }
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** What the edge does with one request: answer it itself, or (undefined) pass it to Folio. */
export type EdgeRule = (
  request: IncomingMessage,
) => { status: number; headers?: Record<string, string> } | 'hang' | undefined;

export interface Edge {
  url: string;
  /** Every request that reached the edge, with what happened to it. */
  seen: { method: string; path: string; at: number; answer: number | 'forwarded' | 'hung'; body?: string }[];
  close(): Promise<void>;
}

/** An HTTP proxy in front of `target` that applies `rule` to each request first. */
export async function startEdge(target: string, rule: EdgeRule): Promise<Edge> {
  const seen: Edge['seen'] = [];
  const hung = new Set<ServerResponse>();
  const server = createHttpServer(async (request, response) => {
    const path = request.url ?? '/';
    const decision = rule(request);
    if (decision === 'hang') {
      seen.push({ method: request.method ?? 'GET', path, at: Date.now(), answer: 'hung' });
      hung.add(response);
      return;
    }
    if (decision) {
      seen.push({ method: request.method ?? 'GET', path, at: Date.now(), answer: decision.status });
      response.writeHead(decision.status, { 'content-type': 'text/plain', ...decision.headers });
      response.end('refused by the edge');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined;
    seen.push({ method: request.method ?? 'GET', path, at: Date.now(), answer: 'forwarded', body });
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
    }
    const upstream = await fetch(`${target}${path}`, {
      method: request.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'content-length')
        out[name] = value;
    });
    response.writeHead(upstream.status, out);
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    close() {
      for (const response of hung) response.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
