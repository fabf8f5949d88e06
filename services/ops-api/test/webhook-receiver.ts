import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP listener standing in for a webhook receiver (an internal receiver: the tests put
 * 127.0.0.1 on the allow-list): each POST's JSON body is handed to `onPost`, whose number is the
 * status answered. `url` is its base URL.
 */
export async function startWebhookReceiver(
  onPost: (body: Record<string, unknown>) => number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => res.writeHead(onPost(JSON.parse(body || '{}') as Record<string, unknown>)).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
