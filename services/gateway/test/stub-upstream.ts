import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { IDENTITY_HEADER, verifyIdentity, type Identity } from '@corridor/platform';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';

export interface Received {
  method: string;
  url: string;
  identity: Identity | undefined;
  /** The service the identity token was signed for. */
  audience: string | undefined;
  /** Credentials that must never leave the gateway. */
  authorization: string | undefined;
  cookie: string | undefined;
  body: string;
}

/**
 * A stand-in for every upstream service: answers 200 {} to anything and records what arrived,
 * with the forwarded identity verified as the service it was signed for (its audience) would verify it.
 * `hangs`: records the request and never answers (a service that does not answer in time, however
 * long the caller waits; close() drops its connections).
 */
export async function startStubUpstream(
  opts: { hangs?: boolean } = {},
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const token = req.headers[IDENTITY_HEADER];
        const audience = typeof token === 'string' ? String(decodeJwt(token).aud) : undefined;
        const identity =
          typeof token === 'string' ? await verifyIdentity(token, TEST_IDENTITY_SECRET, audience!).catch(() => undefined) : undefined;
        received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          identity,
          audience,
          authorization: req.headers.authorization,
          cookie: req.headers.cookie,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (opts.hangs) return;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
