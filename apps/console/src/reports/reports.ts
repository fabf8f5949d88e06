import { reportsEndpoints } from '@corridor/contracts/reports';
import { endpoint } from '../api/endpoint';

export const REPORT_KINDS = ['summary', 'trips', 'stops', 'route', 'events'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const reportEndpoints = {
  summary: endpoint(reportsEndpoints, 'reports.summary'),
  trips: endpoint(reportsEndpoints, 'reports.trips'),
  stops: endpoint(reportsEndpoints, 'reports.stops'),
  route: endpoint(reportsEndpoints, 'reports.route'),
  events: endpoint(reportsEndpoints, 'reports.events'),
};
