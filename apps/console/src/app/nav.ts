import type { EndpointDef } from '@corridor/contracts/endpoint';
import { journeysEndpoints } from '@corridor/contracts/journeys';
import { positionsEndpoints } from '@corridor/contracts/positions-api';
import { devicesEndpoints } from '@corridor/contracts/devices';
import { shipmentsEndpoints } from '@corridor/contracts/shipments';
import { cargoEndpoints } from '@corridor/contracts/cargo';
import { certificatesEndpoints } from '@corridor/contracts/certificates';
import { complaintsEndpoints } from '@corridor/contracts/complaints';
import { disciplinaryEndpoints } from '@corridor/contracts/disciplinary';
import { ratingsEndpoints } from '@corridor/contracts/ratings';
import { dashboardsEndpoints } from '@corridor/contracts/dashboards';
import { reportsEndpoints } from '@corridor/contracts/reports';
import { usersEndpoints } from '@corridor/contracts/users';
import { routesEndpoints } from '@corridor/contracts/routes';
import { geofencesEndpoints } from '@corridor/contracts/geofences';
import { notificationRulesEndpoints } from '@corridor/contracts/notification-rules';
import { observatoryEndpoints } from '@corridor/contracts/observatory';
import { endpoint } from '../api/endpoint';
import { computedApi, driversApi, groupsApi, maintenanceApi } from '../admin/resource-apis';
import type { en } from '../i18n/en';

type NavKey = keyof (typeof en)['nav'];
interface NavItem {
  to: string;
  label: NavKey;
  /** The screen's main endpoint: the item shows when the user's roles may call it (packages/contracts access rules). */
  gate: Pick<EndpointDef, 'access'>;
  /** Shown only to users bound to a company (company portal) or only to those who are not. */
  company?: boolean;
}
export interface NavArea {
  label: NavKey;
  items: NavItem[];
}

/** The console's areas and screens, in the order the navigation shows them. */
export const NAV: NavArea[] = [
  {
    label: 'dispatch',
    items: [
      { to: '/map', label: 'map', gate: endpoint(positionsEndpoints, 'positions.list') },
      { to: '/devices', label: 'devices', gate: endpoint(devicesEndpoints, 'devices.list') },
      { to: '/replay', label: 'replay', gate: endpoint(positionsEndpoints, 'positions.gpx') },
      { to: '/alert-rules', label: 'alertRules', gate: endpoint(notificationRulesEndpoints, 'notifications.types') },
      { to: '/journeys', label: 'journeys', gate: endpoint(journeysEndpoints, 'journeys.active') },
    ],
  },
  {
    label: 'company',
    items: [
      { to: '/shipments', label: 'shipments', gate: endpoint(shipmentsEndpoints, 'shipments.listCompany'), company: true },
      { to: '/cargo', label: 'cargo', gate: endpoint(cargoEndpoints, 'cargo.listCompany'), company: true },
      { to: '/certificates', label: 'certificates', gate: endpoint(certificatesEndpoints, 'certificates.list'), company: true },
      { to: '/inbox', label: 'inbox', gate: { access: 'authenticated' }, company: true },
      { to: '/complaints/new', label: 'fileComplaint', gate: endpoint(complaintsEndpoints, 'complaints.create'), company: true },
    ],
  },
  {
    label: 'association',
    items: [
      { to: '/oversight/shipments', label: 'oversight', gate: endpoint(shipmentsEndpoints, 'shipments.listAdmin') },
      { to: '/approvals', label: 'approvals', gate: endpoint(certificatesEndpoints, 'certificates.approve') },
      { to: '/complaints', label: 'complaints', gate: endpoint(complaintsEndpoints, 'complaints.list') },
      { to: '/disciplinary', label: 'disciplinary', gate: endpoint(disciplinaryEndpoints, 'disciplinary.list') },
      { to: '/ratings', label: 'ratings', gate: endpoint(ratingsEndpoints, 'ratings.stats') },
      { to: '/dashboards', label: 'dashboards', gate: endpoint(dashboardsEndpoints, 'compliance.kenya') },
      { to: '/observatory', label: 'observatory', gate: endpoint(observatoryEndpoints, 'observatory.dwell') },
    ],
  },
  {
    label: 'reports',
    items: [{ to: '/reports', label: 'reports', gate: endpoint(reportsEndpoints, 'reports.summary') }],
  },
  {
    label: 'admin',
    items: [
      { to: '/admin/users', label: 'users', gate: endpoint(usersEndpoints, 'users.create') },
      { to: '/admin/companies', label: 'companies', gate: endpoint(usersEndpoints, 'users.create') },
      { to: '/admin/devices', label: 'adminDevices', gate: endpoint(devicesEndpoints, 'devices.create') },
      { to: '/admin/inventories', label: 'inventories', gate: endpoint(usersEndpoints, 'users.create') },
      { to: '/admin/routes', label: 'routes', gate: endpoint(routesEndpoints, 'routes.create') },
      { to: '/admin/geofences', label: 'geofences', gate: endpoint(geofencesEndpoints, 'geofences.create') },
      { to: '/admin/groups', label: 'groups', gate: groupsApi.create },
      { to: '/admin/drivers', label: 'drivers', gate: driversApi.create },
      { to: '/admin/maintenance', label: 'maintenance', gate: maintenanceApi.create },
      { to: '/admin/computed-attributes', label: 'computed', gate: computedApi.create },
    ],
  },
];
