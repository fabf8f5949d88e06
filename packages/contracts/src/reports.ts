import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, repeated } from './common';
import { allRoles } from './roles';
import { AlarmType, Event, EventType } from './events';
import { PositionIdSchema } from './positions';
import { Position } from './positions';
import { queryFlag } from './resource-endpoints';

/**
 * Reports in Traccar's shapes (ReportTrips, ReportStops, ReportSummary, Position[], Event[]).
 * Units as Traccar's clients expect: durations and engine hours in milliseconds, speeds in knots,
 * distances and odometers in metres, fuel in litres.
 */

/** Output format; without it the Accept header decides (text/csv, the xlsx media type, else JSON). */
export const ReportFormat = z.enum(['json', 'csv', 'xlsx']);
export type ReportFormat = z.infer<typeof ReportFormat>;
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const ReportQueryBase = z.object({
  deviceId: repeated(ref('device', z.coerce.number().int().positive())).optional().describe('Repeatable: deviceId=1&deviceId=2'),
  groupId: repeated(ref('group', z.coerce.number().int().positive()))
    .optional()
    .describe('Repeatable: every device of the group and of its subgroups. deviceId or groupId is required.'),
  from: IsoDateTime.describe('Period start (ISO 8601)'),
  to: IsoDateTime.describe('Period end (ISO 8601); the period may not exceed the server maximum (REPORT_MAX_PERIOD_DAYS)'),
  format: ReportFormat.optional().describe('json, csv or xlsx; overrides the Accept header'),
  mail: queryFlag
    .optional()
    .describe(
      'true: answers 204 at once and mails the report (xlsx, or csv with format=csv) to the caller, as Traccar; 400 without a mail channel',
    ),
});

const seconds = (what: string) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86400)
    .optional()
    .describe(`${what}, seconds`);
const metres = (what: string) => z.coerce.number().min(0).max(1_000_000).optional().describe(`${what}, metres`);

/** Per-request overrides of the trip thresholds (else the device attribute of Traccar's key name, else the server setting). */
export const TripThresholdsQuery = z.object({
  newLogic: queryFlag.optional().describe('report.trip.newLogic: distance-based detection (default true)'),
  minDistance: metres('report.trip.minDistance (new logic)'),
  minDuration: seconds('report.trip.minDuration (new logic)'),
  stopGap: seconds('report.trip.stopGap (new logic)'),
  minimalTripDistance: metres('report.trip.minimalTripDistance (old logic)'),
  minimalTripDuration: seconds('report.trip.minimalTripDuration (old logic)'),
  minimalParkingDuration: seconds('report.trip.minimalParkingDuration (old logic)'),
  minimalNoDataDuration: seconds('report.trip.minimalNoDataDuration (old logic)'),
  useIgnition: queryFlag.optional().describe('report.trip.useIgnition (old logic): ignition off ends a trip'),
  ignoreOdometer: queryFlag.optional().describe('report.ignoreOdometer: distances from positions even when the device reports an odometer'),
  speedThreshold: z.coerce.number().min(0).max(100).optional().describe('event.motion.speedThreshold, knots (motion when faster)'),
});
export type TripThresholdsQuery = z.output<typeof TripThresholdsQuery>;

export const ReportRouteQuery = ReportQueryBase;
export const ReportTripsQuery = ReportQueryBase.extend(TripThresholdsQuery.shape);
const ReportStopsQuery = ReportTripsQuery;
export const ReportSummaryQuery = ReportQueryBase.extend({
  daily: queryFlag.optional().describe('One row per calendar day (in timezone) instead of one per device'),
  timezone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'an IANA time zone such as Africa/Nairobi')
    .default('UTC')
    .describe('IANA time zone of the daily split'),
  ignoreOdometer: TripThresholdsQuery.shape.ignoreOdometer,
  speedThreshold: TripThresholdsQuery.shape.speedThreshold,
});
/** Traccar's names for "every type": `%` (the API) and `allEvents` (its web app). */
export const ALL_EVENT_TYPES = ['%', 'allEvents'] as const;
export const ReportEventsQuery = ReportQueryBase.extend({
  type: repeated(z.union([EventType, z.enum(ALL_EVENT_TYPES)]))
    .optional()
    .describe('Repeatable event types; % or allEvents (or none) = all'),
  alarm: repeated(AlarmType).optional().describe('Repeatable: only alarm events with one of these alarms'),
});

export const ReportGeofencesQuery = ReportQueryBase.extend({
  geofenceId: repeated(ref('geofence', z.coerce.number().int().positive()))
    .optional()
    .describe('Repeatable: only visits of these geofences (none = every geofence)'),
});
/** Traccar's combined report has no spreadsheet: JSON only. */
export const ReportCombinedQuery = ReportQueryBase.omit({ format: true, mail: true });

const time = IsoDateTime;
const ms = z.number().int().describe('milliseconds');
const knots = z.number().min(0).describe('knots');
const m = z.number().describe('metres');
const gap = z
  .number()
  .min(0)
  .describe(
    'metres the positions jumped rather than moved: legs between two fixes longer than the highest plausible speed ' +
      '(REPORT_MAX_SPEED, 200 km/h by default) covers in their time, with 100 m for position error. A gap in the track, not ' +
      "driven: left out of distance and average speed (0 when the distance is the device odometer's)",
  );

export const ReportTrip = z
  .object({
    deviceId: z.number().int(),
    deviceName: z.string(),
    distance: m,
    gapDistance: gap,
    averageSpeed: knots,
    maxSpeed: knots,
    spentFuel: z.number().describe('litres; 0 when the device reports no fuel data (Traccar)'),
    startOdometer: m.nullable().describe('device odometer at the start, metres; null without one'),
    endOdometer: m.nullable(),
    startTime: time,
    endTime: time,
    startPositionId: PositionIdSchema,
    endPositionId: PositionIdSchema,
    startLat: z.number(),
    startLon: z.number(),
    endLat: z.number(),
    endLon: z.number(),
    startAddress: z.string().optional().describe('absent when unknown'),
    endAddress: z.string().optional().describe('absent when unknown'),
    duration: ms,
    driverUniqueId: z.string().optional().describe('absent when the positions name no driver'),
    driverName: z.string().optional().describe('absent when no driver of that uniqueId is registered'),
  })
  .meta({ id: 'ReportTrips' });
export type ReportTrip = z.infer<typeof ReportTrip>;

export const ReportStop = z
  .object({
    deviceId: z.number().int(),
    deviceName: z.string(),
    positionId: PositionIdSchema,
    latitude: z.number(),
    longitude: z.number(),
    address: z.string().optional().describe('absent when unknown'),
    startTime: time,
    endTime: time,
    duration: ms,
    engineHours: ms.describe('engine time during the stop (hours attribute delta, else ignition-on time), ms; 0 without either (Traccar)'),
    spentFuel: z.number().describe('litres; 0 when the device reports no fuel data (Traccar)'),
    startOdometer: m.nullable(),
    endOdometer: m.nullable(),
    distance: m,
    gapDistance: gap,
    averageSpeed: knots,
    maxSpeed: knots,
  })
  .meta({ id: 'ReportStops' });
export type ReportStop = z.infer<typeof ReportStop>;

export const ReportSummary = z
  .object({
    deviceId: z.number().int(),
    deviceName: z.string(),
    distance: m,
    gapDistance: gap,
    averageSpeed: knots.describe('knots: distance over engine hours; without engine data, the mean speed of the fixes in motion'),
    maxSpeed: knots,
    spentFuel: z.number().describe('litres; 0 when the device reports no fuel data (Traccar)'),
    startOdometer: m.nullable(),
    endOdometer: m.nullable(),
    startTime: time,
    endTime: time,
    startHours: ms.nullable().describe('hours attribute at the first fix, ms'),
    endHours: ms.nullable(),
    engineHours: ms.describe(
      'hours attribute delta, else ignition-on time; 0 without either (Traccar; startHours and endHours say whether the device reports hours)',
    ),
  })
  .meta({ id: 'ReportSummary' });
export type ReportSummary = z.infer<typeof ReportSummary>;

export const ReportGeofence = z
  .object({
    deviceId: z.number().int(),
    deviceName: z.string(),
    geofenceId: z.number().int(),
    startTime: time.describe('the geofenceEnter event'),
    endTime: time.describe('the geofenceExit event that closed the visit'),
    duration: ms,
  })
  .meta({ id: 'ReportGeofences' });
export type ReportGeofence = z.infer<typeof ReportGeofence>;

export const CombinedReportItem = z
  .object({
    deviceId: z.number().int(),
    route: z.array(z.tuple([z.number(), z.number()])).describe('[longitude, latitude] of every position of the period, oldest first'),
    events: z.array(Event).describe('the events of the period tied to a position, but deviceMoving'),
    positions: z.array(Position).describe('the positions the events of the period are tied to'),
  })
  .meta({ id: 'CombinedReportItem' });
export type CombinedReportItem = z.infer<typeof CombinedReportItem>;

/** Everyone signed in except trackers. Company users get their own company's devices only. */
const readers = allRoles.filter((r) => r !== 'device');
const tags = ['reports'];
const formats =
  'JSON by default; CSV (text/csv) or Excel (xlsx) through the Accept header or format=csv|xlsx, sent as an attachment. ' +
  'Large periods are streamed. A period longer than the server maximum answers 400; a device or group the caller may not see answers 404.';

/** Traccar's /reports/{type}/mail: the report's query, mailed to the caller. */
function mailEndpoint<T extends string, Q extends z.ZodType<Record<string, unknown>>>(type: T, query: Q) {
  return defineEndpoint({
    id: `reports.${type}.mail` as `reports.${T}.mail`,
    method: 'get',
    path: `/reports/${type}/mail` as `/reports/${T}/mail`,
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: `Mail the ${type} report to the caller (Traccar's /reports/${type}/mail)`,
    description:
      'The same query as the report (mail is implied). The devices and the period are checked at once (400, 404); then 204, and the ' +
      "report is built and mailed in the background to the caller's notification email, else their account email: xlsx, or csv with format=csv. " +
      '400 when the server has no mail channel (SMTP_URL).',
    request: { query },
    responses: { 204: { description: 'Queued: the report is mailed', schema: null } },
  });
}

/** Traccar's /reports/{type}/xlsx: the report's query, answered as an Excel file (as format=xlsx). */
function xlsxEndpoint<T extends string, Q extends z.ZodType<Record<string, unknown>>>(type: T, query: Q) {
  return defineEndpoint({
    id: `reports.${type}.xlsx` as `reports.${T}.xlsx`,
    method: 'get',
    path: `/reports/${type}/xlsx` as `/reports/${T}/xlsx`,
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: `The ${type} report as an Excel file (Traccar's /reports/${type}/xlsx)`,
    description: 'The same query as the report; the answer is the xlsx attachment whatever the Accept header or format say.',
    request: { query },
    responses: { 200: { description: 'The workbook', schema: z.string(), contentType: XLSX_MEDIA_TYPE } },
  });
}

export const reportsEndpoints = [
  defineEndpoint({
    id: 'reports.route',
    method: 'get',
    path: '/reports/route',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Route report: the positions of devices over a period',
    description: `Positions oldest first, device after device. ${formats}`,
    request: { query: ReportRouteQuery },
    responses: { 200: { description: 'Positions', schema: z.array(Position) } },
  }),
  defineEndpoint({
    id: 'reports.events',
    method: 'get',
    path: '/reports/events',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Events report: the events of devices over a period',
    description: `Events oldest first, device after device, optionally only some types or alarms. ${formats}`,
    request: { query: ReportEventsQuery },
    responses: { 200: { description: 'Events', schema: z.array(Event) } },
  }),
  defineEndpoint({
    id: 'reports.summary',
    method: 'get',
    path: '/reports/summary',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Summary report: distance, speeds, engine hours and fuel per device (or per device and day)',
    description: `Devices without positions in the period are left out. ${formats}`,
    request: { query: ReportSummaryQuery },
    responses: { 200: { description: 'Summaries', schema: z.array(ReportSummary) } },
  }),
  defineEndpoint({
    id: 'reports.trips',
    method: 'get',
    path: '/reports/trips',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Trips report: intervals from deviceMoving to deviceStopped',
    description:
      'Traccar semantics. New logic (default): moving once a fix is minDistance (200 m) from the last stop point, the start ' +
      'back-dated over the fixes that led there; stopped once every fix of the last minDuration (180 s) lies within minDistance; ' +
      'a data gap over stopGap (3600 s) that covered minDistance fast enough is a trip of its own. Old logic (newLogic=false): ' +
      'motion streaks of minimalTripDuration / minimalTripDistance, parking of minimalParkingDuration, gaps of minimalNoDataDuration. ' +
      `An interval still open at the end of the period closes at its last fix. ${formats}`,
    request: { query: ReportTripsQuery },
    responses: { 200: { description: 'Trips', schema: z.array(ReportTrip) } },
  }),
  defineEndpoint({
    id: 'reports.stops',
    method: 'get',
    path: '/reports/stops',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Stops report: intervals from deviceStopped to deviceMoving',
    description: `The same detection as the trips report (and the same threshold parameters). ${formats}`,
    request: { query: ReportStopsQuery },
    responses: { 200: { description: 'Stops', schema: z.array(ReportStop) } },
  }),
  defineEndpoint({
    id: 'reports.geofences',
    method: 'get',
    path: '/reports/geofences',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Geofence report: visits (enter to exit) per device and geofence',
    description:
      'From the geofenceEnter/geofenceExit events of the period, as Traccar pairs them: an enter opens a visit of its geofence ' +
      '(a later enter replaces it), the next exit of that geofence closes it; visits still open at the end of the period are left ' +
      `out. Sorted by start time. ${formats}`,
    request: { query: ReportGeofencesQuery },
    responses: { 200: { description: 'Visits', schema: z.array(ReportGeofence) } },
  }),
  defineEndpoint({
    id: 'reports.combined',
    method: 'get',
    path: '/reports/combined',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Combined report: per device, the route, the events and their positions',
    description:
      "Traccar's CombinedReportItem per device (devices in id order): every position's [longitude, latitude], the events " +
      'tied to a position (deviceMoving left out), and the positions the events are tied to. JSON only. ' +
      'A period longer than the server maximum answers 400; a device or group the caller may not see answers 404.',
    request: { query: ReportCombinedQuery },
    responses: { 200: { description: 'One item per device', schema: z.array(CombinedReportItem) } },
  }),
  mailEndpoint('route', ReportRouteQuery),
  mailEndpoint('events', ReportEventsQuery),
  mailEndpoint('summary', ReportSummaryQuery),
  mailEndpoint('trips', ReportTripsQuery),
  mailEndpoint('stops', ReportStopsQuery),
  xlsxEndpoint('route', ReportRouteQuery),
  xlsxEndpoint('events', ReportEventsQuery),
  xlsxEndpoint('summary', ReportSummaryQuery),
  xlsxEndpoint('trips', ReportTripsQuery),
  xlsxEndpoint('stops', ReportStopsQuery),
  defineEndpoint({
    id: 'reports.devices.xlsx',
    method: 'get',
    path: '/reports/devices/xlsx',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: "Traccar's devices report: every device the caller sees, as an Excel file",
    description:
      'One row per device (id order): name, unique id, status, last update, and the place of its latest position (coordinates and ' +
      "address when known). A company user gets their company's devices. /reports/devices/mail is not offered (404).",
    request: { query: z.object({}) },
    responses: { 200: { description: 'The workbook', schema: z.string(), contentType: XLSX_MEDIA_TYPE } },
  }),
] as const;
