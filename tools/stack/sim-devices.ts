import type { OpsApiService } from '@corridor/ops-api';

/** Seed companies whose users see the simulated trucks (ops-api seeds companies 101 and 202). */
const COMPANIES = [101, 202];

/** Registers the simulator's trucks as devices (idempotent: existing unique ids are kept). */
export async function registerSimDevices(ops: OpsApiService, uniqueIds: string[]): Promise<number> {
  const existing = new Set((await ops.devices.list({ uniqueIds, limit: 10000, offset: 0 })).map((d) => d.uniqueId));
  let created = 0;
  for (const [i, uniqueId] of uniqueIds.entries()) {
    if (existing.has(uniqueId)) continue;
    await ops.devices.create({
      name: `Truck ${String(i + 1).padStart(2, '0')}`,
      uniqueId,
      disabled: false,
      groupId: null,
      calendarId: null,
      companyId: COMPANIES[i % COMPANIES.length]!,
      phone: null,
      model: 'OsmAnd simulator',
      contact: null,
      category: 'truck',
      expirationTime: null,
      attributes: { simulated: true },
    });
    created++;
  }
  return created;
}
