import type { EndpointDef, ServiceName } from './endpoint';
import { positionsEndpoints } from './positions-api';
import { devicesEndpoints } from './devices';
import { systemEndpoints } from './system';

/** Every endpoint of the public API (under /api). Each owning service registers exactly these. */
export const allEndpoints: readonly EndpointDef[] = [...systemEndpoints, ...positionsEndpoints, ...devicesEndpoints];

export const endpointsOf = (service: ServiceName): EndpointDef[] => allEndpoints.filter((e) => e.service === service);
