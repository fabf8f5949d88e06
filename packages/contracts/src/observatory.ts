import { z } from 'zod';
import { IsoDateTime, repeated } from './common';
import { CoveredPeriod } from './dashboards';
import { defineEndpoint } from './endpoint';
import { ref } from './references';
import { ReportFormat } from './reports';
import { allRoles, type Role } from './roles';

/**
 * The corridor observatory: transit times between the corridors' places and end to end, dwell at
 * border posts, ports, depots, weighbridges and checkpoints, and stops outside authorized places per
 * 1,000 km, by week or month and direction, from the fleet's own fixes (the geofence service's
 * tracker writes the facts, ops-api aggregates them). A company sees its own figures against the
 * others' together (no company named, cells of fewer than `minTrucks` trucks withheld); the
 * association sees all and any one company against the rest. Times are UTC; weeks start on Monday.
 */
export const ObservatoryCorridor = z.enum(['northern', 'central']);
export type ObservatoryCorridor = z.infer<typeof ObservatoryCorridor>;
export const ObservatoryInterval = z.enum(['week', 'month']);
export type ObservatoryInterval = z.infer<typeof ObservatoryInterval>;
export const ObservatoryPlaceKind = z.enum(['border_post', 'port', 'inland_depot', 'weighbridge', 'checkpoint']);
export type ObservatoryPlaceKind = z.infer<typeof ObservatoryPlaceKind>;
/** forward: along the corridor's line, from its port inland (Mombasa → Malaba, Dar es Salaam → Rusumo); reverse: toward the port. */
export const ObservatoryWay = z.enum(['forward', 'reverse']);
export type ObservatoryWay = z.infer<typeof ObservatoryWay>;
export const ObservatoryDirection = z.enum(['forward', 'reverse', 'both']);
export type ObservatoryDirection = z.infer<typeof ObservatoryDirection>;
/** all: every truck; company: the company asked for (a company's own); others: every other company's trucks together, unnamed. */
export const ObservatorySeries = z.enum(['all', 'company', 'others']);
export type ObservatorySeries = z.infer<typeof ObservatorySeries>;

const seconds = z.number().nullable().describe('seconds; null when there is nothing to measure or the cell is withheld');
const count = z.number().int().nullable().describe('null when the cell is withheld');
const cell = {
  series: ObservatorySeries,
  companyId: z.number().int().nullable().describe('the company of a `company` row; null otherwise (the others are never named)'),
  suppressed: z.boolean().describe('true: fewer trucks than minTrucks, the figures are withheld'),
};

export const ObservatoryQuery = z.object({
  from: IsoDateTime.optional().describe(
    'period start (default: 12 weeks before `to`); the period counts whole UTC days, from the day holding `from`',
  ),
  to: IsoDateTime.optional().describe('period end (default: now); at most 400 days after `from`; the day holding `to` counts whole'),
  interval: ObservatoryInterval.default('week').describe('week (from Monday, UTC) or calendar month (UTC)'),
  corridor: ObservatoryCorridor.optional(),
  direction: ObservatoryDirection.default('both').describe(
    'forward or reverse; both: transit rows of both ways (each says its own), dwell and stops of both ways together',
  ),
  companyId: ref('company', z.coerce.number().int().positive())
    .optional()
    .describe(
      'the association: this company (series company) against the others (series others); a company user sees its own against the others whether it sends this or not',
    ),
  format: ReportFormat.optional().describe(
    "json (default), csv or xlsx (a file headed in the reader's language and units); overrides the Accept header",
  ),
});
export type ObservatoryQuery = z.output<typeof ObservatoryQuery>;

export const ObservatoryTransitQuery = ObservatoryQuery.extend({
  kind: z.enum(['segment', 'corridor']).optional().describe('segment: between adjacent places; corridor: end to end (default: both)'),
});
export const ObservatoryDwellQuery = ObservatoryQuery.extend({
  kind: repeated(ObservatoryPlaceKind).optional().describe('Repeatable: only places of these kinds'),
});

export const ObservatoryTransit = z
  .object({
    periodStart: z.iso.date().describe("the week's Monday or the month's first day (UTC)"),
    corridor: ObservatoryCorridor,
    kind: z.enum(['segment', 'corridor']),
    fromPlaceId: z.string().describe('the geofence of the place left'),
    fromName: z.string(),
    toPlaceId: z.string(),
    toName: z.string(),
    direction: ObservatoryWay,
    lengthKm: z.number().describe("along the corridor's line between the two places"),
    ...cell,
    trips: count.describe('trips counted: left the first place and reached the second without leaving the corridor or stopping a day'),
    trucks: count,
    medianSeconds: seconds.describe('median transit time of the counted trips, seconds (linear between trips)'),
    p90Seconds: seconds,
    speedKmh: z.number().nullable().describe('lengthKm over the median transit time'),
    excludedLeftCorridor: count.describe('trips counted apart: the truck left the corridor on the way'),
    excludedLongStop: count.describe('trips counted apart: the truck stopped, or was silent, more than a day on the way'),
  })
  .meta({ id: 'ObservatoryTransit' });
export type ObservatoryTransit = z.infer<typeof ObservatoryTransit>;

export const ObservatoryDwell = z
  .object({
    periodStart: z.iso.date(),
    placeId: z.string(),
    placeName: z.string(),
    placeKind: z.string(),
    corridor: ObservatoryCorridor.nullable().describe('null: a place off both corridors'),
    direction: ObservatoryDirection.describe('the way the trucks came in (both: all of them)'),
    ...cell,
    visits: count.describe('visits that ended in the period'),
    trucks: count,
    medianSeconds: seconds,
    p90Seconds: seconds,
    thresholdSeconds: z.number().describe("the association's threshold for this kind of place"),
    overThreshold: count.describe('visits longer than the threshold'),
    overThresholdShare: z.number().nullable().describe('overThreshold / visits, 0 to 1'),
  })
  .meta({ id: 'ObservatoryDwell' });
export type ObservatoryDwell = z.infer<typeof ObservatoryDwell>;

export const ObservatoryStops = z
  .object({
    periodStart: z.iso.date(),
    corridor: ObservatoryCorridor,
    direction: ObservatoryDirection,
    ...cell,
    stops: count.describe(
      'stops of at least minStopMinutes outside every authorized place (border posts, ports, depots, weighbridges, checkpoints, truck parks)',
    ),
    distanceKm: z.number().nullable().describe('driven on the corridor'),
    stopsPer1000Km: z.number().nullable(),
    trucks: count,
  })
  .meta({ id: 'ObservatoryStops' });
export type ObservatoryStops = z.infer<typeof ObservatoryStops>;

const report = <T extends z.ZodTypeAny>(item: T, id: string) =>
  z
    .object({
      period: CoveredPeriod,
      interval: ObservatoryInterval,
      direction: ObservatoryDirection,
      companyId: z.number().int().nullable().describe('the company the rows of series company are'),
      minTrucks: z.number().int().describe('cells of the others with fewer trucks are withheld'),
      generatedAt: IsoDateTime,
      items: z.array(item),
    })
    .meta({ id });

export const ObservatoryTransitReport = report(ObservatoryTransit, 'ObservatoryTransitReport');
export type ObservatoryTransitReport = z.infer<typeof ObservatoryTransitReport>;
export const ObservatoryDwellReport = report(ObservatoryDwell, 'ObservatoryDwellReport');
export type ObservatoryDwellReport = z.infer<typeof ObservatoryDwellReport>;
export const ObservatoryStopsReport = report(ObservatoryStops, 'ObservatoryStopsReport');
export type ObservatoryStopsReport = z.infer<typeof ObservatoryStopsReport>;

/** The whole period at once, for the map: segments by transit speed, places by dwell. */
export const ObservatoryOverview = z
  .object({
    period: CoveredPeriod,
    companyId: z.number().int().nullable(),
    minTrucks: z.number().int(),
    segments: z.array(
      ObservatoryTransit.omit({ periodStart: true }).extend({
        fromAlongM: z.number().describe("metres along the corridor's line (packages/geodata) of the first place"),
        toAlongM: z.number(),
      }),
    ),
    places: z.array(ObservatoryDwell.omit({ periodStart: true })),
  })
  .meta({ id: 'ObservatoryOverview' });
export type ObservatoryOverview = z.infer<typeof ObservatoryOverview>;

const minutes = (what: string) => z.number().int().min(1).max(10_080).describe(`${what}, minutes`);
export const ObservatoryThresholds = z.object({
  border_post: minutes('border posts'),
  port: minutes('port gates'),
  inland_depot: minutes('inland depots'),
  weighbridge: minutes('weighbridges'),
  checkpoint: minutes('checkpoints'),
});
export const ObservatorySettingsInput = z
  .object({
    dwellThresholdMinutes: ObservatoryThresholds.describe('a visit longer than this counts in overThresholdShare'),
    minTrucks: z.number().int().min(3).max(100).describe("the others' cells (and open data cells) with fewer trucks are withheld"),
    minStopMinutes: z.number().int().min(5).max(1440).describe('the shortest stop counted in stops per 1,000 km'),
  })
  .meta({ id: 'ObservatorySettingsInput' });
export type ObservatorySettingsInput = z.infer<typeof ObservatorySettingsInput>;
export const ObservatorySettings = ObservatorySettingsInput.extend({
  updatedAt: IsoDateTime.nullable(),
  updatedBy: z.number().int().nullable().describe('the user who set them last; null: the defaults'),
}).meta({ id: 'ObservatorySettings' });
export type ObservatorySettings = z.infer<typeof ObservatorySettings>;

/** 1: the first columns; 2: each row states minTrucks, the suppression threshold it was published under. */
export const OPEN_DATA_SCHEMA_VERSION = 2;
export const ObservatoryOpenDataQuery = z.object({
  interval: ObservatoryInterval.default('month'),
  from: IsoDateTime.optional().describe('default: 12 months (interval month) or 12 weeks before `to`'),
  to: IsoDateTime.optional().describe('default: now; only periods that ended by then are given'),
  format: z.enum(['csv', 'json']).default('csv').describe('csv (the JSON keys as headers) or json'),
});
export const ObservatoryOpenDataRow = z
  .object({
    schemaVersion: z.literal(OPEN_DATA_SCHEMA_VERSION),
    indicator: z.enum(['transit', 'corridor_transit', 'dwell', 'stops']),
    periodStart: z.iso.date(),
    periodEnd: z.iso.date().describe('the first day after the period'),
    corridor: z.string().describe('northern, central; empty for a place off both'),
    fromPlace: z.string().describe('transit: the place left'),
    toPlace: z.string().describe('transit: the place reached'),
    place: z.string().describe('dwell: the place'),
    placeKind: z.string(),
    direction: z.string().describe('forward, reverse (transit and dwell) or both'),
    count: z.number().int().nullable().describe('trips, visits or stops'),
    trucks: z.number().int().nullable(),
    medianSeconds: z.number().nullable(),
    p90Seconds: z.number().nullable(),
    overThresholdShare: z.number().nullable(),
    thresholdSeconds: z.number().nullable(),
    distanceKm: z.number().nullable(),
    stopsPer1000Km: z.number().nullable(),
    minTrucks: z
      .number()
      .int()
      .describe("the suppression threshold: a cell of fewer trucks than this is withheld (the association's setting, 3 at least)"),
    suppressed: z.boolean().describe('fewer trucks than minTrucks: the figures are withheld'),
  })
  .meta({ id: 'ObservatoryOpenDataRow' });
export type ObservatoryOpenDataRow = z.infer<typeof ObservatoryOpenDataRow>;
export const ObservatoryOpenData = z
  .object({
    schemaVersion: z.literal(OPEN_DATA_SCHEMA_VERSION),
    generatedAt: IsoDateTime,
    period: CoveredPeriod,
    interval: ObservatoryInterval,
    minTrucks: z.number().int(),
    rows: z.array(ObservatoryOpenDataRow),
  })
  .meta({ id: 'ObservatoryOpenData' });
export type ObservatoryOpenData = z.infer<typeof ObservatoryOpenData>;

/** Everyone signed in but trackers: a company user gets its own figures against the others'. */
const readers: Role[] = allRoles.filter((r) => r !== 'device');
const setters: Role[] = ['admin', 'association_officer'];
const tags = ['observatory'];
const files = "format=csv or xlsx (or the Accept header) answers the items as a file headed in the reader's language and units.";

export const observatoryEndpoints = [
  defineEndpoint({
    id: 'observatory.transit',
    method: 'get',
    path: '/association/observatory/transit',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: "Transit times between the corridors' places and end to end, by week or month",
    description: `Median and 90th percentile of the trips that arrived in each period, per segment and direction, with the trips counted apart. ${files}`,
    request: { query: ObservatoryTransitQuery },
    responses: { 200: { description: 'Transit times', schema: ObservatoryTransitReport } },
  }),
  defineEndpoint({
    id: 'observatory.dwell',
    method: 'get',
    path: '/association/observatory/dwell',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Dwell at border posts, ports, depots, weighbridges and checkpoints, by week or month',
    description: `Median, 90th percentile and the share over the association's threshold of the visits that ended in each period. ${files}`,
    request: { query: ObservatoryDwellQuery },
    responses: { 200: { description: 'Dwell times', schema: ObservatoryDwellReport } },
  }),
  defineEndpoint({
    id: 'observatory.stops',
    method: 'get',
    path: '/association/observatory/stops',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'Stops outside authorized places per 1,000 km, by week or month',
    description: `Stops that began in each period against the distance driven on the corridor in it. ${files}`,
    request: { query: ObservatoryQuery },
    responses: { 200: { description: 'Stops per 1,000 km', schema: ObservatoryStopsReport } },
  }),
  defineEndpoint({
    id: 'observatory.map',
    method: 'get',
    path: '/association/observatory/map',
    service: 'ops-api',
    tags,
    access: readers,
    companyScoped: true,
    summary: 'The corridors over a whole period: segments with their transit speed, places with their dwell',
    request: { query: ObservatoryQuery.omit({ interval: true, format: true }) },
    responses: { 200: { description: 'Segments and places', schema: ObservatoryOverview } },
  }),
  defineEndpoint({
    id: 'observatory.settings',
    method: 'get',
    path: '/association/observatory/settings',
    service: 'ops-api',
    tags,
    access: readers,
    summary: "The observatory's settings: dwell thresholds, the fewest trucks shown, the shortest stop counted",
    responses: { 200: { description: 'The settings', schema: ObservatorySettings } },
  }),
  defineEndpoint({
    id: 'observatory.updateSettings',
    method: 'put',
    path: '/association/observatory/settings',
    service: 'ops-api',
    tags,
    access: setters,
    summary: "Set the observatory's settings (recorded in the audit trail)",
    request: { body: ObservatorySettingsInput },
    responses: { 200: { description: 'The settings', schema: ObservatorySettings } },
  }),
  defineEndpoint({
    id: 'observatory.openData',
    method: 'get',
    path: '/observatory/open-data',
    service: 'ops-api',
    tags,
    access: 'public',
    summary: "The observatory's indicators as open data (no truck, no company)",
    description:
      'Every indicator of every place and segment for each whole week or month that ended in the period, for everyone together: no truck or ' +
      'company is named or counted apart, and a cell of fewer trucks than minTrucks is withheld (suppressed, its figures empty; every row ' +
      "states the minTrucks it was published under, the association's setting, 3 at least). The columns " +
      `are stable: schemaVersion ${OPEN_DATA_SCHEMA_VERSION} names them; a change of meaning comes with a new version. CSV by default (the JSON ` +
      'keys as headers, seconds and kilometres) or JSON with format=json.',
    request: { query: ObservatoryOpenDataQuery },
    responses: { 200: { description: 'The indicators', schema: ObservatoryOpenData } },
  }),
] as const;
