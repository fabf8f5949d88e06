import type { EndpointDef, ServiceName } from './endpoint';
import { positionsEndpoints } from './positions-api';
import { devicesEndpoints, devicesExtraEndpoints } from './devices';
import { systemEndpoints } from './system';
import { geocodeEndpoints } from './geocode';
import { sessionEndpoints } from './session';
import { usersEndpoints } from './users';
import { permissionsEndpoints } from './permissions';
import { socketEndpoints } from './socket';
import { routesEndpoints } from './routes';
import { journeysEndpoints } from './journeys';
import { geofencesEndpoints } from './geofences';
import { geofenceLinksEndpoints } from './geofence-links';
import { complaintsEndpoints } from './complaints';
import { disciplinaryEndpoints } from './disciplinary';
import { ratingsEndpoints } from './ratings';
import { notificationsEndpoints } from './notifications';
import { dashboardsEndpoints } from './dashboards';
import { certificatesEndpoints } from './certificates';
import { companiesEndpoints } from './companies';
import { documentsEndpoints } from './documents';
import { shipmentsEndpoints } from './shipments';
import { cargoEndpoints } from './cargo';
import { reportsEndpoints } from './reports';
import { groupsEndpoints } from './groups';
import { driversEndpoints } from './drivers';
import { calendarsEndpoints } from './calendars';
import { ordersEndpoints } from './orders';
import { reportLinksEndpoints, scheduledReportsEndpoints } from './scheduled-reports';
import { objectLinksEndpoints } from './object-links';
import { maintenanceEndpoints } from './maintenance';
import { computedAttributesEndpoints } from './computed-attributes';
import { deviceModelsEndpoints } from './device-models';
import { configurationsEndpoints } from './configurations';
import { draftsEndpoints } from './drafts';
import { truckOwnersEndpoints } from './truck-owners';
import { trackingUnitsEndpoints } from './tracking-units';
import { inventoriesEndpoints } from './inventories';
import { statisticsEndpoints } from './statistics';
import { eventsEndpoints } from './events-api';
import { notificationRulesEndpoints } from './notification-rules';
import { commandsEndpoints } from './commands-api';
import { auditEndpoints } from './audit';
import { observatoryEndpoints } from './observatory';

/** Every endpoint of the public API (under /api). Each owning service registers exactly these. */
export const allEndpoints: readonly EndpointDef[] = [
  ...systemEndpoints,
  ...positionsEndpoints,
  ...devicesEndpoints,
  ...geofencesEndpoints,
  ...geofenceLinksEndpoints,
  ...complaintsEndpoints,
  ...disciplinaryEndpoints,
  ...ratingsEndpoints,
  ...notificationsEndpoints,
  ...dashboardsEndpoints,
  ...certificatesEndpoints,
  ...routesEndpoints,
  ...journeysEndpoints,
  ...companiesEndpoints,
  ...documentsEndpoints,
  ...shipmentsEndpoints,
  ...cargoEndpoints,
  ...sessionEndpoints,
  ...usersEndpoints,
  ...permissionsEndpoints,
  ...socketEndpoints,
  ...reportsEndpoints,
  ...devicesExtraEndpoints,
  ...groupsEndpoints,
  ...driversEndpoints,
  ...calendarsEndpoints,
  ...ordersEndpoints,
  ...scheduledReportsEndpoints,
  ...reportLinksEndpoints,
  ...objectLinksEndpoints,
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
  ...auditEndpoints,
  ...geocodeEndpoints,
  ...observatoryEndpoints,
];

export const endpointsOf = (service: ServiceName): EndpointDef[] => allEndpoints.filter((e) => e.service === service);
