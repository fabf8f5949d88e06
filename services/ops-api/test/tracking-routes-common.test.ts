import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calendarsEndpoints,
  commandsEndpoints,
  computedAttributesEndpoints,
  configurationsEndpoints,
  deviceModelsEndpoints,
  devicesExtraEndpoints,
  draftsEndpoints,
  driversEndpoints,
  eventsEndpoints,
  fastifyPath,
  groupsEndpoints,
  inventoriesEndpoints,
  maintenanceEndpoints,
  notificationRulesEndpoints,
  ordersEndpoints,
  scheduledReportsEndpoints,
  statisticsEndpoints,
  trackingUnitsEndpoints,
  truckOwnersEndpoints,
  type EndpointDef,
} from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { startHarness, type Harness } from './tracking-harness';

/** 401 / 403 / 400 on every tracking endpoint, and every one of them served exactly as its contract entry says. */
const endpoints: readonly EndpointDef[] = [
  ...devicesExtraEndpoints,
  ...groupsEndpoints,
  ...driversEndpoints,
  ...calendarsEndpoints,
  ...ordersEndpoints,
  ...maintenanceEndpoints,
  ...computedAttributesEndpoints,
  ...deviceModelsEndpoints,
  ...configurationsEndpoints,
  ...draftsEndpoints,
  ...truckOwnersEndpoints,
  ...trackingUnitsEndpoints,
  ...inventoriesEndpoints,
  ...statisticsEndpoints,
  ...eventsEndpoints,
  ...notificationRulesEndpoints,
  ...commandsEndpoints,
  ...scheduledReportsEndpoints,
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('tracking endpoints', () => {
  it("are all registered, with the contract's method and path", async () => {
    await h.svc.app.ready(); // routes of encapsulated plugins (the device image's own body parser) are added at ready
    const served = new Set(h.svc.app.routeTable.map((r) => `${r.method} ${r.url}`));
    const missing = endpoints.filter((e) => !served.has(`${e.method} ${fastifyPath(e)}`)).map((e) => e.id);
    expect(missing).toEqual([]);
  });

  for (const endpoint of endpoints) {
    runCommonRouteTests({
      app: () => h.svc.app,
      endpoint,
      params: { id: '1' },
      // an array is never a valid body for these object schemas
      invalidBody: endpoint.request?.body ? [] : undefined,
    });
  }
});
