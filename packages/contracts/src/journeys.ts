import { z } from 'zod';
import { idParam, ref } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes, ErrorBody, IsoDateTime, repeated } from './common';
import { Route, RoutePoint, routeReaders, routeWriters } from './routes';
import { PositionIdSchema } from './positions';

/**
 * Deviation kinds the journey evaluator flags. `sealBreach` (DESIGN's `seal_breach`): an electronic
 * seal opened or tampered with outside the journey's permitted places (origin, destination, the
 * route's border and depot areas); its details name the place, or "no permitted place" and the nearest.
 */
export const JourneyFlagType = z.enum([
  'offCorridor',
  'unauthorizedStop',
  'overspeed',
  'signalLoss',
  'backtracking',
  'lateEta',
  'sealBreach',
]);
export type JourneyFlagType = z.infer<typeof JourneyFlagType>;

/** planned → active → completed; planned or active → cancelled. */
export const JourneyStatus = z.enum(['planned', 'active', 'completed', 'cancelled']);
export type JourneyStatus = z.infer<typeof JourneyStatus>;

/** Where a journey starts or ends, when it differs from the route's own ends. */
export const JourneyArea = z
  .object({ name: z.string().max(128).optional(), center: RoutePoint, radiusM: z.number().min(10).max(20_000).describe('metres') })
  .meta({ id: 'JourneyArea' });
export type JourneyArea = z.infer<typeof JourneyArea>;

export const JourneyInput = z
  .object({
    deviceId: ref('device', z.number().int().positive()).describe('registry id of the tracker on the truck'),
    truckPlate: z.string().min(1).max(32).nullable().default(null),
    companyId: ref('company', z.number().int().positive())
      .nullable()
      .default(null)
      .describe("the transporter; a company-bound caller's own company by default"),
    routeId: ref('route', z.number().int().positive()),
    shipmentRef: z.string().min(1).max(128).nullable().default(null),
    cargoRef: z.string().min(1).max(128).nullable().default(null),
    plannedDeparture: IsoDateTime.nullable().default(null),
    plannedArrival: IsoDateTime.nullable().default(null),
    origin: JourneyArea.nullable().default(null).describe("replaces the route's origin area"),
    destination: JourneyArea.nullable().default(null).describe("replaces the route's destination area"),
    attributes: Attributes.default({}),
  })
  .superRefine((j, ctx) => {
    if (j.plannedDeparture && j.plannedArrival && Date.parse(j.plannedArrival) <= Date.parse(j.plannedDeparture)) {
      ctx.addIssue({ code: 'custom', path: ['plannedArrival'], message: 'must be after plannedDeparture' });
    }
  })
  .meta({ id: 'JourneyInput' });
export type JourneyInput = z.infer<typeof JourneyInput>;

export const Journey = z
  .object({
    id: z.number().int().positive(),
    deviceId: z.number().int(),
    truckPlate: z.string().nullable(),
    companyId: z.number().int().nullable(),
    routeId: z.number().int(),
    routeName: z.string(),
    shipmentRef: z.string().nullable(),
    cargoRef: z.string().nullable(),
    plannedDeparture: IsoDateTime.nullable(),
    plannedArrival: IsoDateTime.nullable(),
    state: JourneyStatus,
    actualDeparture: IsoDateTime.nullable(),
    actualArrival: IsoDateTime.nullable(),
    origin: JourneyArea.nullable(),
    destination: JourneyArea.nullable(),
    countries: z.array(z.string()).describe("the route's countries"),
    flagged: z.boolean().describe('has flags neither cleared nor resolved'),
    openFlags: z.array(JourneyFlagType).describe('types of those flags'),
    cancelledAt: IsoDateTime.nullable(),
    cancelReason: z.string().nullable(),
    createdBy: z.number().int().nullable(),
    attributes: Attributes,
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'Journey' });
export type Journey = z.infer<typeof Journey>;

export const JourneyFlagReview = z.enum(['new', 'acknowledged', 'resolved']);
export type JourneyFlagReview = z.infer<typeof JourneyFlagReview>;

export const JourneyFlag = z
  .object({
    id: z.number().int().positive(),
    journeyId: z.number().int(),
    deviceId: z.number().int(),
    type: JourneyFlagType,
    openedAt: IsoDateTime,
    clearedAt: IsoDateTime.nullable().describe('when the detector saw the deviation end'),
    latitude: z.number(),
    longitude: z.number(),
    address: z.string().describe('where the flag opened, in words ("14 km NW of Voi, KE"; the offline geocoder)'),
    distanceM: z.number().nullable().describe('distance from the route centre line when opened, metres'),
    details: z.record(z.string(), z.unknown()).describe('detector figures at opening, then at clearing (cleared.*)'),
    escalated: z.boolean(),
    escalatedAt: IsoDateTime.nullable(),
    review: JourneyFlagReview,
    acknowledgedBy: z.number().int().nullable().describe('user id'),
    acknowledgedAt: IsoDateTime.nullable(),
    acknowledgedNote: z.string().nullable(),
    resolvedBy: z.number().int().nullable().describe('user id'),
    resolvedAt: IsoDateTime.nullable(),
    resolvedNote: z.string().nullable(),
  })
  .meta({ id: 'JourneyFlag' });
export type JourneyFlag = z.infer<typeof JourneyFlag>;

/** One fix of the actual track (speed in knots, as positions.v1). */
export const JourneyTrackPoint = z
  .object({
    id: PositionIdSchema,
    fixTime: IsoDateTime,
    latitude: z.number(),
    longitude: z.number(),
    speed: z.number().describe('knots'),
    course: z.number(),
    valid: z.boolean(),
  })
  .meta({ id: 'JourneyTrackPoint' });
export type JourneyTrackPoint = z.infer<typeof JourneyTrackPoint>;

export const JourneyDetail = z
  .object({
    journey: Journey,
    route: Route.describe('the planned route'),
    track: z.array(JourneyTrackPoint).describe('the actual track from departure (actual, else planned) to arrival or now, oldest first'),
    trackTruncated: z.boolean().describe('true when trackLimit cut the track'),
    flags: z.array(JourneyFlag).describe('every flag of the journey, oldest first'),
  })
  .meta({ id: 'JourneyDetail' });
export type JourneyDetail = z.infer<typeof JourneyDetail>;

export const JourneyDetailQuery = z.object({
  trackLimit: z.coerce.number().int().min(0).max(50_000).default(10_000),
});

export const JourneysQuery = z.object({
  companyId: repeated(ref('company', z.coerce.number().int().positive())).optional(),
  routeId: repeated(ref('route', z.coerce.number().int().positive())).optional(),
  deviceId: repeated(ref('device', z.coerce.number().int().positive())).optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 code')
    .optional()
    .describe('journeys whose route crosses this country'),
  flagType: repeated(JourneyFlagType).optional(),
  from: IsoDateTime.optional(),
  to: IsoDateTime.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type JourneysQuery = z.infer<typeof JourneysQuery>;

/** A body that may be left out (no body or JSON null reads as {}). */
const optionalBody = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => v ?? {}, schema);
export const JourneyCancelInput = optionalBody(z.object({ reason: z.string().min(1).max(2000).optional() })).meta({
  id: 'JourneyCancelInput',
});
export const FlagAcknowledgeInput = optionalBody(z.object({ note: z.string().min(1).max(2000).optional() })).meta({
  id: 'FlagAcknowledgeInput',
});
export const FlagResolveInput = z.object({ note: z.string().min(1).max(2000) }).meta({ id: 'FlagResolveInput' });
export const FlagIdParam = z.object({ flagId: ref('journeyFlag', z.coerce.number().int().positive()) });

const tags = ['journeys'];
const denied = { description: 'Not allowed in the current state (INVALID_TRANSITION, details: current and allowed)', schema: ErrorBody };
const listDescription = (what: string, range: string): string =>
  `${what}, newest first. Filters: companyId, routeId, deviceId, country (the route crosses it), flagType, ` +
  `and from/to on ${range}. Company users see their company's journeys only.`;

export const journeysEndpoints = [
  defineEndpoint({
    id: 'journeys.create',
    method: 'post',
    path: '/journey',
    service: 'journey',
    tags,
    summary: 'Declare a journey: a device on a route',
    access: routeWriters,
    request: { body: JourneyInput },
    responses: { 200: { description: 'The planned journey', schema: Journey } },
  }),
  defineEndpoint({
    id: 'journeys.active',
    method: 'get',
    path: '/journey/active',
    service: 'journey',
    tags,
    companyScoped: true,
    summary: 'Active journeys',
    description: listDescription('Journeys under way', 'the departure (actual)'),
    access: routeReaders,
    request: { query: JourneysQuery },
    responses: { 200: { description: 'Journeys', schema: z.array(Journey) } },
  }),
  defineEndpoint({
    id: 'journeys.flagged',
    method: 'get',
    path: '/journey/flagged',
    service: 'journey',
    tags,
    companyScoped: true,
    summary: 'Flagged journeys',
    description: listDescription(
      'Journeys with flags neither cleared nor resolved (flagType: among those flags)',
      'the opening of those flags',
    ),
    access: routeReaders,
    request: { query: JourneysQuery },
    responses: { 200: { description: 'Journeys', schema: z.array(Journey) } },
  }),
  defineEndpoint({
    id: 'journeys.completed',
    method: 'get',
    path: '/journey/completed',
    service: 'journey',
    tags,
    companyScoped: true,
    summary: 'Completed journeys',
    description: listDescription('Journeys that reached their destination (flagType: ever raised)', 'the arrival'),
    access: routeReaders,
    request: { query: JourneysQuery },
    responses: { 200: { description: 'Journeys', schema: z.array(Journey) } },
  }),
  defineEndpoint({
    id: 'journeys.get',
    method: 'get',
    path: '/journey/{id}',
    service: 'journey',
    tags,
    companyScoped: true,
    summary: 'One journey with its planned route, actual track and flags',
    access: routeReaders,
    request: { params: idParam('journey'), query: JourneyDetailQuery },
    responses: { 200: { description: 'The journey', schema: JourneyDetail } },
  }),
  defineEndpoint({
    id: 'journeys.cancel',
    method: 'post',
    path: '/journey/{id}/cancel',
    service: 'journey',
    tags,
    companyScoped: true,
    summary: 'Cancel a planned or active journey (clears its open flags)',
    access: routeWriters,
    request: { params: idParam('journey'), body: JourneyCancelInput },
    responses: { 200: { description: 'The cancelled journey', schema: Journey }, 409: denied },
  }),
  defineEndpoint({
    id: 'journeys.flags.acknowledge',
    method: 'post',
    path: '/journey/flags/{flagId}/acknowledge',
    service: 'journey',
    tags,
    companyScoped: true,
    summary: 'Acknowledge a flag (audited: who, when, note)',
    access: routeWriters,
    request: { params: FlagIdParam, body: FlagAcknowledgeInput },
    responses: { 200: { description: 'The flag', schema: JourneyFlag }, 409: denied },
  }),
  defineEndpoint({
    id: 'journeys.flags.resolve',
    method: 'post',
    path: '/journey/flags/{flagId}/resolve',
    service: 'journey',
    tags,
    companyScoped: true,
    summary: 'Resolve a flag (audited: who, when, note)',
    access: routeWriters,
    request: { params: FlagIdParam, body: FlagResolveInput },
    responses: { 200: { description: 'The flag', schema: JourneyFlag }, 409: denied },
  }),
] as const;
