import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeviceRegistryMessage } from '@corridor/contracts';
import { cacheKeys, type Cache } from '@corridor/platform';

/**
 * The devices, groups and geofences a gateway test may link: devices in the device registry and
 * groups in the list ops-api publishes (both in the shared cache, written here as their owners
 * write them), geofences answered by a stand-in for the geofence service (GET /api/geofences/{id}:
 * 200 for a known id, 404 otherwise). Pass `env` to startGateway, then `seed` the harness's cache.
 */
export async function knownObjects(opts: { devices: number[]; groups?: number[]; geofences?: number[] }) {
  const geofences = new Set(opts.geofences ?? []);
  const server: Server = createServer((req, res) => {
    const id = /^\/api\/geofences\/(\d+)$/.exec(req.url ?? '')?.[1];
    const known = req.method === 'GET' && id !== undefined && geofences.has(Number(id));
    res
      .writeHead(known ? 200 : 404, { 'content-type': 'application/json' })
      .end(known ? JSON.stringify({ id: Number(id) }) : '{"error":{"code":"NOT_FOUND","message":"not found"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    env: { GEOFENCE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
    async seed(cache: Cache): Promise<void> {
      for (const id of opts.devices) {
        const entry = DeviceRegistryMessage.parse({
          id,
          uniqueId: `known-${id}`,
          name: `truck ${id}`,
          disabled: false,
          companyId: 101,
          groupId: null,
          status: 'offline',
          deleted: false,
        });
        await cache.set(cacheKeys.deviceById(id), JSON.stringify(entry));
      }
      await cache.set(cacheKeys.groups(), JSON.stringify((opts.groups ?? []).map((id) => ({ id, companyId: 101 }))));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
