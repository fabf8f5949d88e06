import type { EndpointDef, ServiceName } from './endpoint';
import { positionsEndpoints } from './positions-api';
import { devicesEndpoints } from './devices';
import { systemEndpoints } from './system';
import { sessionEndpoints } from './session';
import { usersEndpoints } from './users';
import { permissionsEndpoints } from './permissions';
import { socketEndpoints } from './socket';
import { routesEndpoints } from './routes';
import { journeysEndpoints } from './journeys';
import { geofencesEndpoints } from './geofences';
import { complaintsEndpoints } from './complaints';
import { disciplinaryEndpoints } from './disciplinary';
import { ratingsEndpoints } from './ratings';
import { notificationsEndpoints } from './notifications';
import { dashboardsEndpoints } from './dashboards';
import { companiesEndpoints } from './companies';
import { documentsEndpoints } from './documents';
import { shipmentsEndpoints } from './shipments';
import { cargoEndpoints } from './cargo';

/** Every endpoint of the public API (under /api). Each owning service registers exactly these. */
export const allEndpoints: readonly EndpointDef[] = [...systemEndpoints, ...positionsEndpoints, ...devicesEndpoints, ...geofencesEndpoints, ...complaintsEndpoints, ...disciplinaryEndpoints, ...ratingsEndpoints, ...notificationsEndpoints, ...dashboardsEndpoints, ...routesEndpoints, ...journeysEndpoints, ...companiesEndpoints, ...documentsEndpoints, ...shipmentsEndpoints, ...cargoEndpoints, ...sessionEndpoints, ...usersEndpoints, ...permissionsEndpoints, ...socketEndpoints];

export const endpointsOf = (service: ServiceName): EndpointDef[] => allEndpoints.filter((e) => e.service === service);
