import type { Device, PositionMessage } from '@corridor/contracts';
import { reportsEndpoints } from '@corridor/contracts';
import { companyScope, registerEndpoint, type App } from '@corridor/platform';
import type { LatestPositions } from '../devices/latest-positions';
import type { DevicesService } from '../devices/service';
import type { Presentation } from './formats/presentation';
import { sendReport } from './formats/send';
import { field, type ReportTable } from './formats/table';

const devicesXlsx = reportsEndpoints.find((e) => e.id === 'reports.devices.xlsx')!;
const PAGE = 500;

interface DeviceRow {
  id: number;
  name: string;
  uniqueId: string;
  status: string;
  lastUpdate: string | null;
  latitude: number | null;
  longitude: number | null;
  address: string | null;
}

const table: ReportTable<DeviceRow> = {
  name: 'devices',
  columns: [
    field('id', 'integer', 'deviceId'),
    field('name', 'text', 'deviceName'),
    field('uniqueId', 'text'),
    field('status', 'text'),
    field('lastUpdate', 'time'),
    field('latitude', 'coordinate'),
    field('longitude', 'coordinate'),
    field('address', 'text'),
  ],
};

const rowOf = (d: Device, p: PositionMessage | undefined): DeviceRow => ({
  id: d.id,
  name: d.name,
  uniqueId: d.uniqueId,
  status: d.status,
  lastUpdate: d.lastUpdate,
  latitude: p?.latitude ?? null,
  longitude: p?.longitude ?? null,
  address: p?.address ?? null,
});

/**
 * GET /reports/devices/xlsx (Traccar's devices report): the caller's devices a page at a time, each
 * with the place of its latest position, streamed into the workbook.
 */
export function devicesReportRoutes(
  app: App,
  deps: { devices: DevicesService; latest: LatestPositions; presentationFor(userId?: number): Promise<Presentation> },
): void {
  registerEndpoint(app, devicesXlsx, async (req, reply) => {
    const scope = companyScope(req.identity!);
    async function* batches(): AsyncIterable<DeviceRow[]> {
      for (let offset = 0; ; offset += PAGE) {
        const page = await deps.devices.list({ companyId: scope, limit: PAGE, offset });
        const latest = await deps.latest(page.map((d) => d.id));
        yield page.map((d) => rowOf(d, latest.get(d.id)));
        if (page.length < PAGE) return;
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return sendReport(reply, {
      format: 'xlsx',
      table,
      batches: batches(),
      filename: `devices-${day}`,
      presentation: await deps.presentationFor(req.identity?.userId),
    });
  });
}
