import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Storage } from './s3-storage';

/**
 * A minimal S3-compatible endpoint on loopback (path-style PUT/GET/DELETE of objects, S3's XML
 * NoSuchKey error), enough to drive the real @aws-sdk/client-s3 through the storage interface.
 */
function fakeS3(): { server: Server; objects: Map<string, { body: Buffer; type: string }>; requests: string[] } {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const requests: string[] = [];
  const read = async (req: IncomingMessage): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
      requests.push(`${req.method} ${path} ${req.headers.authorization ? 'signed' : 'unsigned'}`);
      if (req.method === 'PUT') {
        objects.set(path, { body: await read(req), type: String(req.headers['content-type'] ?? '') });
        res.writeHead(200, { etag: '"1"' }).end();
      } else if (req.method === 'GET') {
        const o = objects.get(path);
        if (!o) {
          res
            .writeHead(404, { 'content-type': 'application/xml' })
            .end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
          return;
        }
        res.writeHead(200, { 'content-type': o.type, 'content-length': o.body.length }).end(o.body);
      } else if (req.method === 'DELETE') {
        objects.delete(path);
        res.writeHead(204).end();
      } else res.writeHead(405).end();
    })();
  });
  return { server, objects, requests };
}

describe('S3-compatible storage', () => {
  const s3 = fakeS3();
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((r) => s3.server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(s3.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => s3.server.close(() => r())));

  it('puts, gets and deletes objects under the bucket and prefix, signing every request', async () => {
    const storage = s3Storage({
      endpoint,
      region: 'us-east-1',
      bucket: 'corridor-docs',
      accessKeyId: 'test',
      secretAccessKey: 'test-secret',
      forcePathStyle: true,
      prefix: 'ops/',
    });
    expect(storage.backend).toBe('s3');
    const bytes = Buffer.from('%PDF-1.7 fake bytes');
    await storage.put('101/abc', bytes, 'application/pdf');
    expect(s3.objects.get('/corridor-docs/ops/101/abc')).toMatchObject({ type: 'application/pdf' });
    expect(Buffer.compare((await storage.get('101/abc'))!, bytes)).toBe(0);
    expect(await storage.get('101/missing')).toBeUndefined();
    await storage.delete('101/abc');
    expect(s3.objects.size).toBe(0);
    expect(s3.requests.every((r) => r.endsWith('signed'))).toBe(true);
    storage.client.destroy();
  });
});
