import type { EndpointDef } from '@corridor/contracts/endpoint';
import { computedAttributesEndpoints } from '@corridor/contracts/computed-attributes';
import { driversEndpoints } from '@corridor/contracts/drivers';
import { groupsEndpoints } from '@corridor/contracts/groups';
import { maintenanceEndpoints } from '@corridor/contracts/maintenance';
import type { ResourceApi } from './ResourceScreen';

/** A Traccar resource's list, create, update and delete, found by the id prefix resourceEndpoints gives them. */
function resourceApi(list: readonly EndpointDef[], prefix: string): ResourceApi {
  const find = (verb: string) => {
    const def = list.find((e) => e.id === `${prefix}.${verb}`);
    if (!def) throw new Error(`no endpoint ${prefix}.${verb}`);
    return def;
  };
  return { list: find('list'), create: find('create'), update: find('update'), remove: find('delete'), invalidates: `${prefix}.` };
}

export const groupsApi = resourceApi(groupsEndpoints, 'groups');
export const driversApi = resourceApi(driversEndpoints, 'drivers');
export const maintenanceApi = resourceApi(maintenanceEndpoints, 'maintenance');
export const computedApi = resourceApi(computedAttributesEndpoints, 'attributes.computed');
