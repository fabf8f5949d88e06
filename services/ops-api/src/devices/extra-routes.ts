import { devicesExtraEndpoints, type DeviceInput } from '@corridor/contracts';
import { companyScope, registerEndpoint, type App, type Identity } from '@corridor/platform';
import { actorOf } from '../resources/routes';
import { invalidField } from '../resources/pg-errors';
import { ownerCompany } from '../resources/scope';
import type { AccumulatorsService } from './accumulators';
import type { DeviceConfigurationService } from './configuration';
import type { DevicesService } from './service';

const [bulkCreate, bulkUpdate, bulkDelete, configurationGet, configurationPut, accumulators] = devicesExtraEndpoints;

/** A device input with its company decided for the caller (company callers: their own). */
export const ownedDevice = <T extends DeviceInput>(d: T, who: Identity): T => ({ ...d, companyId: ownerCompany(who, d.companyId) });

/** Bulk create/update/delete, per-device configuration and accumulators. Device writes go through the devices service (registry sync). */
export function deviceExtraRoutes(
  app: App,
  deps: { devices: DevicesService; configuration: DeviceConfigurationService; accumulators: AccumulatorsService },
): void {
  const { devices } = deps;
  registerEndpoint(app, bulkCreate, async (req) =>
    devices.createMany(
      req.body.devices.map((d) => ownedDevice(d, req.identity!)),
      actorOf(req),
    ),
  );
  registerEndpoint(app, bulkUpdate, async (req) => {
    const scope = companyScope(req.identity!);
    for (const d of req.body.devices) await devices.get(d.id, scope);
    return devices.updateMany(
      req.body.devices.map((d) => ownedDevice(d, req.identity!)),
      actorOf(req),
    );
  });
  registerEndpoint(app, bulkDelete, async (req, reply) => {
    await devices.removeMany(req.query.id, actorOf(req));
    return reply.code(204).send();
  });
  registerEndpoint(app, configurationGet, async (req) =>
    deps.configuration.read(await devices.get(req.params.id, companyScope(req.identity!))),
  );
  registerEndpoint(app, configurationPut, async (req) =>
    deps.configuration.write(await devices.get(req.params.id, companyScope(req.identity!)), req.body, actorOf(req)),
  );
  registerEndpoint(app, accumulators, async (req, reply) => {
    if (req.body.deviceId !== req.params.id) throw invalidField('deviceId', 'must equal the device id of the path');
    await deps.accumulators.set(await devices.get(req.params.id, companyScope(req.identity!)), req.body, actorOf(req));
    return reply.code(204).send();
  });
}
