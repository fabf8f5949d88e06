export type { CorridorId, CountryCode, LonLat, Ring } from './types';
export { bearingDegrees, distanceMetres, interpolate, offsetMetres, EARTH_RADIUS_M } from './geo-math';
export { measureLine, pointAlong, projectOnLine, type MeasuredLine, type PointOnLine, type Projection } from './polyline';
export {
  buildCorridor,
  OPEN_ROAD_LIMIT_KPH,
  TOWN_LIMIT_KPH,
  type Corridor,
  type CorridorSpec,
  type Leg,
  type PathEntry,
  type Waypoint,
} from './corridor-builder';
export { CENTRAL_CORRIDOR, CORRIDORS, NORTHERN_CORRIDOR, corridorById, corridorLineString } from './corridors';
export {
  BORDER_POSTS,
  INLAND_DEPOTS,
  PLACES,
  PORTS,
  TRUCK_PARKING,
  WEIGHBRIDGES,
  placeById,
  placesOnCorridor,
  type Place,
  type PlaceKind,
} from './places';
