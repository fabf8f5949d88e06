import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stands in for the geofence service's GET /api/geofences/{id} in ops-api's own tests (the geofence
 * service is not part of this package; tools/stack's cross-company test checks geofence references
 * against the real one): 200 for the listed ids, 404 for any other. Signature and audience of the
 * identity token are the geofence service's concern and are not checked here.
 */
export async function geofenceOwner(visible: number[]): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const id = /^\/api\/geofences\/(\d+)$/.exec(req.url ?? '')?.[1];
    res.statusCode = req.method === 'GET' && id !== undefined && visible.includes(Number(id)) ? 200 : 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
